"""``jobledger stub``: filling newly required cells, ``--check`` saying "would",
``--rename OLD NEW`` by hand, ``--quote-yes-no``, and a ``$schema`` line right on every clone."""

from __future__ import annotations

import json
import re
import sys
import sysconfig
from pathlib import Path

import jsonschema
import pytest
import yaml as pyyaml

from pytest_jobledger import cli
from pytest_jobledger.overlay.schema import schema_text

from .test_stub import job, overlay, use_ledger

FIVE = ("idempotent", "poison_policy", "paging_owner", "runtime_class", "purpose_accepted")
SIGNED_FIVE = """\
jobs:
  # billing signs this
  acme.billing.capture:  # signed 2024-05
    idempotent: "yes"
    poison_policy: drop
    paging_owner: billing-oncall
    runtime_class: synchronous-short
    purpose_accepted: Captures a payment.
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text('[tool.jobledger]\npaths = ["src"]\n')
    (tmp_path / "overlays").mkdir()
    (tmp_path / "src").mkdir()
    monkeypatch.chdir(tmp_path)
    use_ledger(monkeypatch, job("acme.billing.capture"))
    return tmp_path


def configure(project: Path, extra: str) -> None:
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + extra)


# -- a cell added to required_cells later ----------------------------------------------------


def test_a_newly_required_cell_is_filled_into_signed_entries_only_adding_lines(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    overlay(project).write_text(SIGNED_FIVE)
    assert cli.main(["stub", "--check"]) == 0  # complete for the five default cells
    capsys.readouterr()
    cells = ", ".join(f'"{cell}"' for cell in (*FIVE, "data_retention"))
    configure(project, f"required_cells = [{cells}]\n")

    assert cli.main(["stub", "--check"]) == 1
    assert overlay(project).read_text() == SIGNED_FIVE
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "overlays/job_policy.yaml: would add data_retention to acme.billing.capture "
        "(required cells it did not have)",
        "overlays/job_policy.yaml: would change (1 to fill); run `jobledger stub` to write it",
    ]

    assert cli.main(["stub"]) == 0
    assert overlay(project).read_text() == SIGNED_FIVE + "    data_retention: unknown\n"
    assert capsys.readouterr().out.splitlines()[-1] == (
        "overlays/job_policy.yaml: updated (1 filled)"
    )
    assert cli.main(["stub", "--check"]) == 0
    assert "up to date" in capsys.readouterr().out


def test_check_says_would_and_the_run_says_what_it_did(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    use_ledger(monkeypatch, job("acme.billing.capture"), job("acme.billing.refund"))
    overlay(project).write_text(SIGNED_FIVE)
    assert cli.main(["stub", "--check"]) == 1
    checked = capsys.readouterr().out
    assert "would add acme.billing.refund" in checked
    assert ": added" not in checked
    assert cli.main(["stub"]) == 0
    assert "overlays/job_policy.yaml: added acme.billing.refund" in capsys.readouterr().out


# -- --rename OLD NEW ------------------------------------------------------------------------


def test_rename_by_hand_changes_only_the_key(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    use_ledger(monkeypatch, job("acme.payments.take"))
    overlay(project).write_text(SIGNED_FIVE)
    assert cli.main(["stub", "--check"]) == 1  # no evidence: a new job, and a hint
    assert (
        "overlays/job_policy.yaml: hint: orphan acme.billing.capture: the committed ledger does "
        "not name it, so nothing shows what it became (`jobledger stub --renames` reads the old "
        "ids there: run it before `jobledger extract`); if it became one of the jobs added, run "
        "`jobledger stub --rename acme.billing.capture NEW_ID`"
    ) in capsys.readouterr().out.splitlines()
    assert cli.main(["stub", "--rename", "acme.billing.capture", "acme.payments.take"]) == 0
    assert overlay(project).read_text() == SIGNED_FIVE.replace(
        "acme.billing.capture:", "acme.payments.take:"
    )
    out = capsys.readouterr().out
    assert "moved acme.billing.capture -> acme.payments.take (by hand)" in out
    assert cli.main(["stub", "--check"]) == 0


@pytest.mark.parametrize(
    ("old", "new", "why"),
    [
        ("acme.billing.captur", "acme.payments.take", "is not an entry of the overlay"),
        ("acme.billing.capture", "acme.payments.tak", "is not a job in the ledger"),
        ("acme.billing.capture", "acme.billing.refund", "already has a signed entry"),
    ],
)
def test_rename_refusals_exit_2_and_write_nothing(
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    old: str,
    new: str,
    why: str,
) -> None:
    use_ledger(monkeypatch, job("acme.payments.take"), job("acme.billing.refund"))
    text = SIGNED_FIVE + SIGNED_FIVE.split("\n", 2)[2].replace("capture", "refund")
    overlay(project).write_text(text)
    assert cli.main(["stub", "--rename", old, new]) == 2
    assert overlay(project).read_text() == text
    err = capsys.readouterr().err
    assert why in err
    assert "nothing was written" in err
    assert "Traceback" not in err


# -- --quote-yes-no --------------------------------------------------------------------------


def test_quote_yes_no_changes_only_those_scalars_and_pyyaml_then_agrees(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = SIGNED_FIVE.replace('"yes"', "yes") + "  acme.billing.refund: {idempotent: no}\n"
    before = before.replace("runtime_class: synchronous-short", "runtime_class: Yes  # sic")
    overlay(project).write_text(before)
    assert pyyaml.safe_load(before)["jobs"]["acme.billing.capture"]["idempotent"] is True
    assert cli.main(["stub", "--quote-yes-no", "--check"]) == 1
    assert overlay(project).read_text() == before
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        'overlays/job_policy.yaml: would quote acme.billing.capture: idempotent: yes as "yes" '
        "(line 4; YAML 1.1 readers read it unquoted as a boolean)"
    )
    assert out[-1].endswith("run `jobledger stub --quote-yes-no` to write it")
    assert cli.main(["stub", "--quote-yes-no"]) == 0
    after = overlay(project).read_text()
    # The byte diff: exactly three scalars, each now in double quotes; nothing else moved.
    assert re.sub(r'"(yes|no|Yes)"', r"\1", after).startswith(before)
    changed = [
        (a, b) for a, b in zip(before.splitlines(), after.splitlines(), strict=False) if a != b
    ]
    assert changed == [
        ("    idempotent: yes", '    idempotent: "yes"'),
        ("    runtime_class: Yes  # sic", '    runtime_class: "Yes"  # sic'),
        ("  acme.billing.refund: {idempotent: no}", '  acme.billing.refund: {idempotent: "no"}'),
    ]
    loaded = pyyaml.safe_load(after)["jobs"]
    assert loaded["acme.billing.capture"]["idempotent"] == "yes"
    assert loaded["acme.billing.refund"]["idempotent"] == "no"


def test_without_the_flag_plain_yes_is_left_as_written(project: Path) -> None:
    before = SIGNED_FIVE.replace('"yes"', "yes")
    overlay(project).write_text(before)
    assert cli.main(["stub"]) == 0
    assert overlay(project).read_text() == before


# -- the $schema line ------------------------------------------------------------------------


def schema_line(project: Path) -> str:
    return overlay(project).read_text().splitlines()[0]


def test_the_schema_line_points_at_the_configured_schema_relatively(project: Path) -> None:
    configure(
        project, 'overlay = "policy/jobs/overlay.yaml"\nschema = "docs/overlay.schema.json"\n'
    )
    (project / "policy" / "jobs").mkdir(parents=True)
    assert cli.main(["stub"]) == 0
    line = (project / "policy" / "jobs" / "overlay.yaml").read_text().splitlines()[0]
    assert line == "# yaml-language-server: $schema=../../docs/overlay.schema.json"


def test_the_schema_line_uses_schema_url_when_configured(project: Path) -> None:
    configure(project, 'schema_url = "https://example.com/schemas/job_policy.json"\n')
    assert cli.main(["stub"]) == 0
    assert schema_line(project) == (
        "# yaml-language-server: $schema=https://example.com/schemas/job_policy.json"
    )


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/x.json",
        "file:///etc/passwd",
        "/abs/x.json",
        "https://",
        3,
        "https://example.com/a b.json",
    ],
)
def test_schema_url_must_be_an_https_url(
    project: Path, capsys: pytest.CaptureFixture[str], url: object
) -> None:
    value = f'"{url}"' if isinstance(url, str) else str(url)
    configure(project, f"schema_url = {value}\n")
    assert cli.main(["stub"]) == 2
    err = capsys.readouterr().err
    assert "[tool.jobledger] schema_url:" in err
    assert not overlay(project).exists()


def test_the_stub_never_writes_a_machine_path(project: Path) -> None:
    assert cli.main(["stub"]) == 0
    text = overlay(project).read_text()
    machine = {str(project), sys.prefix, sysconfig.get_paths()["purelib"], "site-packages"}
    for path in machine:
        assert path not in text
    reference = schema_line(project).split("$schema=", 1)[1]
    assert not Path(reference).is_absolute()
    assert not re.match(r"^[A-Za-z]:[\\/]", reference)


def test_the_schema_the_line_names_accepts_a_configured_project_cell(project: Path) -> None:
    """The gate accepts a project's own cell; the packaged schema (which the line named before)
    rejects it, the schema the line names now (`jobledger schema`'s) accepts it."""
    configure(project, '[tool.jobledger.cells.data_retention]\ndescription = "How long."\n')
    assert cli.main(["stub"]) == 0
    assert cli.main(["schema"]) == 0
    reference = schema_line(project).split("$schema=", 1)[1]
    schema = json.loads((overlay(project).parent / reference).read_text())
    signed = SIGNED_FIVE.replace("  # billing signs this\n", "") + "    data_retention: 30 days\n"
    document = pyyaml.safe_load(signed)
    jsonschema.validate(document, schema)  # raises if the editor would flag the cell
    with pytest.raises(jsonschema.ValidationError, match="data_retention"):
        jsonschema.validate(document, json.loads(schema_text()))


def test_a_machine_path_left_by_an_older_stub_gets_a_hint(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    venv = "../.venv/lib/python3.12/site-packages/pytest_jobledger/schemas/overlay.schema.json"
    old = f"# yaml-language-server: $schema={venv}\n"
    overlay(project).write_text(old + SIGNED_FIVE)
    assert cli.main(["stub", "--check"]) == 0  # a hint, not a change
    out = capsys.readouterr().out
    assert "overlays/job_policy.yaml:1: hint: the $schema line names a path on one machine" in out
    assert "change it to `$schema=job_policy.schema.json`" in out
    assert overlay(project).read_text() == old + SIGNED_FIVE
