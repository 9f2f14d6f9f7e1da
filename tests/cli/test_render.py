"""``jobledger render`` end to end: the refusal, the outputs, ``--check``, and the runbook-fresh
status item that ``jobledger check`` and ``pytest --jobledger`` both report."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from repo_files import copy_tracked

from pytest_jobledger.cli import main

REPO = Path(__file__).resolve().parents[2]
HOMEGROWN = REPO / "examples" / "homegrown"
PARTLY = REPO / "tests" / "cases" / "runbook" / "partly_signed"
OVERLAY = "overlays/job_policy.yaml"


@pytest.fixture
def signed(tmp_path: Path) -> Path:
    """The signed homegrown example with `runbook` configured."""
    root = tmp_path / "acme"
    copy_tracked(HOMEGROWN, root)
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text("utf-8").replace(
        'paths = ["src"]', 'paths = ["src"]\nrunbook = "docs/jobs.md"'
    )
    pyproject.write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def unsigned(tmp_path: Path) -> Path:
    root = tmp_path / "half"
    copy_tracked(PARTLY, root)
    return root


def test_writes_the_configured_runbook(
    signed: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(signed)  # paths are shown from the current folder
    assert main(["render", "--root", str(signed)]) == 0
    page = (signed / "docs" / "jobs.md").read_text("utf-8")
    assert page.startswith("# Job runbook: acme&#45;billing\n")  # repository text as entities
    assert capsys.readouterr().err == "jobledger: wrote docs/jobs.md: 2 jobs\n"
    assert main(["render", "--root", str(signed), "-o", "-"]) == 0
    assert capsys.readouterr().out == page  # byte-identical: no clock, no path of the checkout


def test_refuses_to_publish_unsigned_work(
    unsigned: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(unsigned)  # paths are shown from the current folder
    assert main(["render", "--root", str(unsigned)]) == 1
    assert not (unsigned / "docs").exists()
    assert main(["render", "--root", str(unsigned), "-o", "-"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert lines[0] == (
        "jobledger: the runbook was not written: 8 policy cells and 0 other checks fail; "
        "unsigned work never ships in a page"
    )
    assert lines[1].startswith(
        "src/acme/billing/tasks.py:18: acme.billing.tasks.refund_invoice::idempotent [unsigned] "
    )
    assert lines[6] == "... and 3 more (`jobledger check` lists every one)"
    assert "--preview" in lines[-1]


def test_a_stale_ledger_blocks_publication_too(
    signed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger = signed / "generated" / "job_ledger.json"
    ledger.write_text(ledger.read_text("utf-8").replace('"max_retries": 5', '"max_retries": 3'))
    assert main(["render", "--root", str(signed), "-o", "-"]) == 1
    assert "[ledger-stale]" in capsys.readouterr().err


def test_a_preview_marks_every_unsigned_cell(
    unsigned: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["render", "--root", str(unsigned), "--preview", "-o", "-"]) == 0
    page = capsys.readouterr().out
    assert page.startswith("> **Preview: 8 policy cells are unsigned; not for publication.**\n")
    assert page.count("**[UNSIGNED]**") >= 8
    assert "> **Unverified draft, not a promise.**" in page
    assert "DRAFT-SHOULD-NOT-SHOW" not in page  # its job's purpose is signed


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--preview"], "a preview is never written over the runbook"),
        (["--format", "json"], "the configured runbook is Markdown"),
        (["--check", "--preview"], "--check compares the written runbook"),
        (["--check", "-o", "-"], "--check compares the written runbook"),
        (["--check", "--format", "json", "-o", "x.json"], "leave out --format"),
    ],
)
def test_usage_errors_exit_2(
    signed: Path, args: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["render", "--root", str(signed), *args]) == 2
    assert says in capsys.readouterr().err
    assert not (signed / "docs").exists()


def test_json_to_a_path_of_your_choice(signed: Path, tmp_path: Path) -> None:
    target = tmp_path / "out" / "jobs.json"
    assert main(["render", "--root", str(signed), "--format", "json", "-o", str(target)]) == 0
    assert target.read_text("utf-8").startswith("{\n")


def test_check_passes_fails_and_says_where(
    signed: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(signed)  # paths are shown from the current folder
    assert main(["render", "--root", str(signed), "--check"]) == 1
    assert "docs/jobs.md does not exist" in capsys.readouterr().err
    assert main(["render", "--root", str(signed)]) == 0
    assert main(["render", "--root", str(signed), "--check"]) == 0
    page = signed / "docs" / "jobs.md"
    page.write_text(page.read_text("utf-8").replace("| 5 |", "| 3 |"), encoding="utf-8")
    capsys.readouterr()
    assert main(["render", "--root", str(signed), "--check"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("docs/jobs.md:11: differs from a fresh render")


def test_a_runbook_outside_the_root_is_refused(
    signed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pyproject = signed / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text("utf-8").replace('"docs/jobs.md"', '"../elsewhere.md"'),
        encoding="utf-8",
    )
    assert main(["render", "--root", str(signed)]) == 2
    assert "[tool.jobledger] runbook: '../elsewhere.md' must be relative" in capsys.readouterr().err


def test_check_command_reports_a_stale_runbook(
    signed: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(signed)  # paths are shown from the current folder
    assert main(["check", "--root", str(signed)]) == 1
    assert capsys.readouterr().out.startswith(
        "docs/jobs.md:1: jobledger-status::runbook-fresh [runbook-stale] The committed runbook "
        "docs/jobs.md does not exist yet."
    )
    assert main(["render", "--root", str(signed)]) == 0
    assert main(["check", "--root", str(signed)]) == 0
    overlay = signed / OVERLAY
    overlay.write_text(overlay.read_text("utf-8") + "# a comment is a new overlay, by digest\n")
    capsys.readouterr()
    assert main(["check", "--root", str(signed)]) == 1
    # the inputs' digests are in the page's footer, its last line
    last = len((signed / "docs" / "jobs.md").read_text("utf-8").splitlines())
    assert f"first difference at line {last}" in capsys.readouterr().out


def test_a_crlf_checkout_of_up_to_date_files_is_not_stale(
    signed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Windows checkout (``core.autocrlf``) turns the committed LF files into CRLF; nothing
    changed, so neither the ledger nor the runbook is stale. A real change still is."""
    assert main(["render", "--root", str(signed)]) == 0
    for name in ("generated/job_ledger.json", "docs/jobs.md"):
        path = signed / name
        path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    capsys.readouterr()
    assert main(["check", "--root", str(signed)]) == 0
    assert main(["render", "--root", str(signed), "--check"]) == 0
    page = signed / "docs" / "jobs.md"
    page.write_bytes(page.read_bytes().replace(b"| 5 |", b"| 3 |"))
    capsys.readouterr()
    assert main(["render", "--root", str(signed), "--check"]) == 1
    assert main(["check", "--root", str(signed)]) == 1
    assert "runbook-stale" in capsys.readouterr().out


def test_pytest_reports_the_same_runbook_item(pytester: pytest.Pytester, signed: Path) -> None:
    shutil.copytree(signed, pytester.path, dirs_exist_ok=True)
    collected = pytester.runpytest_inprocess("--jobledger", "--collect-only", "-q").outlines
    assert collected[:4] == [
        f"{OVERLAY}::jobledger-status::overlay-valid",
        f"{OVERLAY}::jobledger-status::ledger-fresh",
        f"{OVERLAY}::jobledger-status::jobs-found",
        f"{OVERLAY}::jobledger-status::runbook-fresh",
    ]
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--jobledger", "-rA", "-q")
    result.assert_outcomes(passed=13, failed=1)
    assert f"FAILED {OVERLAY}::jobledger-status::runbook-fresh" in result.stdout.str()
    assert main(["render", "--root", str(pytester.path)]) == 0
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--jobledger", "-q")
    result.assert_outcomes(passed=14)


def test_the_runbook_item_is_skipped_while_cells_fail(
    pytester: pytest.Pytester, signed: Path
) -> None:
    shutil.copytree(signed, pytester.path, dirs_exist_ok=True)
    overlay = pytester.path / OVERLAY
    overlay.write_text(
        overlay.read_text("utf-8").replace('idempotent: "no"', "idempotent: unknown")
    )
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--jobledger", "-rs", "-q")
    result.assert_outcomes(passed=12, failed=1, skipped=1)
    assert "the runbook is not rendered while 1 check fails" in result.stdout.str()
