"""``jobledger draft`` end to end with fake model commands: what is sent, what is kept, what is
skipped, and that nothing a model says ever reaches the overlay or a published page."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from repo_files import copy_tracked

from pytest_jobledger.cli import main
from pytest_jobledger.draft.store import read_drafts
from pytest_jobledger.project import Config, load_config
from pytest_jobledger.project.files import read_file
from pytest_jobledger.session import evaluate

from ._fakes import fake

REPO = Path(__file__).resolve().parents[2]
PARTLY = REPO / "tests" / "cases" / "runbook" / "partly_signed"
RECEIPT = "acme.billing.tasks.send_receipt"
REFUND = "acme.billing.tasks.refund_invoice"
CAPTURE = "acme.billing.tasks.capture_invoice"
DRAFTS = "overlays/purpose_drafts.yaml"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The half-signed case without its drafts: two unsigned purposes, one signed."""
    root = tmp_path / "acme"
    copy_tracked(PARTLY, root)
    (root / DRAFTS).unlink()
    return root


def drafts(root: Path) -> dict[str, str]:
    return {
        job: draft.text
        for job, draft in read_drafts(read_file("drafts", Config(root=root))).items()
    }


def test_drafts_each_unsigned_purpose_with_one_request(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = fake(tmp_path, "echo")
    overlay_before = (project / "overlays" / "job_policy.yaml").read_bytes()
    assert main(["draft", "--root", str(project), "--command", command]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("jobledger draft: runs ")
    assert "(given with --command)" in err[0]
    assert "never through a shell" in err[0]
    assert err[-1] == (
        "jobledger draft: 2 unsigned purposes: 2 drafted, 0 kept, 0 skipped, 0 failed; "
        f"wrote 2 to {DRAFTS}"
    )
    assert drafts(project) == {
        REFUND: "Drafted from refund_invoice (['docstring', 'function', 'id', 'module', 'queue']): "
        "Refund a captured invoice in full and write the credit note.",
        RECEIPT: "Drafted from send_receipt (['docstring', 'function', 'id', 'module', 'queue']): "
        "Email the receipt once the invoice has been captured.",
    }
    saved = read_drafts(read_file("drafts", Config(root=project)))[RECEIPT]
    assert (saved.status, saved.program) == ("unverified-draft", Path(sys.executable).name)
    assert (project / "overlays" / "job_policy.yaml").read_bytes() == overlay_before


def test_the_configured_command_is_shown_with_where_it_came_from(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pyproject = project / "pyproject.toml"
    command = fake(tmp_path, "echo")
    pyproject.write_text(
        pyproject.read_text("utf-8").replace(
            'paths = ["src"]', f'paths = ["src"]\ndraft_command = {json.dumps(command)}'
        ),
        encoding="utf-8",
    )
    assert main(["draft", "--root", str(project), "--dry-run"]) == 0
    out, err = capsys.readouterr()
    assert "(draft_command in pyproject.toml [tool.jobledger])" in err.splitlines()[0]
    assert "is that repository's program: check it first" in err.splitlines()[0]
    sent = [json.loads(line) for line in out.splitlines()]
    assert [row["id"] for row in sent] == [REFUND, RECEIPT]
    assert all(sorted(row) == ["docstring", "function", "id", "module", "queue"] for row in sent)
    assert not (project / DRAFTS).exists()


def test_without_a_command_nothing_runs(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", "--root", str(project)]) == 2
    assert "no draft command, so nothing was run or written" in capsys.readouterr().err
    assert not (project / DRAFTS).exists()


def test_failures_are_per_job_and_exit_1(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A command that fails only for one job: it reads the request and decides.
    script = tmp_path / "picky.py"
    script.write_text(
        "import json, sys\nrequest = json.load(sys.stdin)\n"
        "if request['function'] == 'refund_invoice':\n    sys.exit('refunds are not my job')\n"
        "print('Sends the receipt.')\n",
        encoding="utf-8",
    )
    command = f"{shutil.which('python3') or 'python3'} {script}"
    assert main(["draft", "--root", str(project), "--command", command]) == 1
    err = capsys.readouterr().err
    assert f"{REFUND}: no draft: it exited with status 1: refunds are not my job" in err
    assert drafts(project) == {RECEIPT: "Sends the receipt."}


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("fail", "it exited with status 3: model quota exceeded"),
        ("invalid_utf8", "not UTF-8"),
        ("control", "control character"),
        ("megabytes", "more than 8,192 bytes"),
    ],
)
def test_garbage_is_refused_and_nothing_is_written(
    project: Path, tmp_path: Path, name: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["draft", "--root", str(project), "--command", fake(tmp_path, name)]) == 1
    err = capsys.readouterr().err
    assert err.count(says) == 2
    assert not (project / DRAFTS).exists()


def test_a_hanging_command_is_killed_and_the_run_goes_on(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = fake(tmp_path, "hang", str(tmp_path / "pid"))
    assert main(["draft", "--root", str(project), "--command", command, "--timeout", "0.5"]) == 1
    err = capsys.readouterr().err
    assert err.count("did not finish within 0.5 s and was killed") == 2


def test_an_instruction_is_stored_as_text_and_changes_nothing_else(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    overlay = project / "overlays" / "job_policy.yaml"
    before = overlay.read_bytes()
    assert main(["draft", "--root", str(project), "--command", fake(tmp_path, "instruction")]) == 0
    assert set(drafts(project).values()) == {
        'Charges the card.\nAlso mark this job idempotent: set idempotent: "yes" in the overlay.'
    }
    assert overlay.read_bytes() == before
    assert main(["check", "--root", str(project)]) == 1  # still unsigned: a draft signs nothing
    assert main(["render", "--root", str(project), "-o", "-"]) == 1
    capsys.readouterr()


def test_a_docstring_holding_a_secret_is_not_sent(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tasks = project / "src" / "acme" / "billing" / "tasks.py"
    tasks.write_text(
        tasks.read_text("utf-8").replace(
            "Refund a captured invoice in full and write the credit note.",
            "Refund in full. Test with token=sk_test_4eC39HqLyjWDarjtT1zdp7dc please.",
        ),
        encoding="utf-8",
    )
    assert (
        main(["draft", "--root", str(project), "--command", fake(tmp_path, "echo"), "--dry-run"])
        == 0
    )
    out, err = capsys.readouterr()
    assert "sk_test" not in out
    assert "sk_test" not in err
    assert f"{REFUND}: skipped, nothing was sent: its docstring looks like it holds" in err
    assert [json.loads(line)["id"] for line in out.splitlines()] == [RECEIPT]


def test_existing_drafts_are_kept_unless_refresh_and_stale_ones_say_so(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    echo = fake(tmp_path, "echo")
    assert main(["draft", "--root", str(project), "--command", echo]) == 0
    first = drafts(project)
    tasks = project / "src" / "acme" / "billing" / "tasks.py"
    tasks.write_text(
        tasks.read_text("utf-8").replace("Email the receipt", "Email the receipt and a PDF"),
        encoding="utf-8",
    )
    capsys.readouterr()
    assert main(["draft", "--root", str(project), "--command", fake(tmp_path, "deaf")]) == 0
    err = capsys.readouterr().err
    assert f"{RECEIPT}: kept the existing draft (stale, the docstring changed since)" in err
    assert f"{REFUND}: kept the existing draft (current)" in err
    assert drafts(project) == first
    assert (
        main(["draft", "--root", str(project), "--command", fake(tmp_path, "deaf"), "--refresh"])
        == 0
    )
    assert set(drafts(project).values()) == {"A draft written without reading the request."}


def test_the_detector_missing_means_nothing_is_sent(
    project: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from pytest_jobledger.cli import draft as command
    from pytest_jobledger.draft.screen import DetectorMissing

    def missing() -> None:
        raise DetectorMissing()

    monkeypatch.setattr(command, "Screen", missing)
    marker = tmp_path / "ran"
    script = tmp_path / "touch.py"
    script.write_text(f"open({str(marker)!r}, 'w').write('x')\n", encoding="utf-8")
    assert main(["draft", "--root", str(project), "--command", f"python3 {script}"]) == 2
    assert "pip install 'pytest-jobledger[drafts]'" in capsys.readouterr().err
    assert not marker.exists()
    assert not (project / DRAFTS).exists()


def test_the_gate_never_reads_drafts(project: Path, tmp_path: Path) -> None:
    config = load_config(root=project)
    before = evaluate(config).checks
    assert main(["draft", "--root", str(project), "--command", fake(tmp_path, "echo")]) == 0
    assert evaluate(config).checks == before  # drafted or not, the same cells fail
    (project / DRAFTS).write_text("this is not yaml: [", encoding="utf-8")
    assert evaluate(config).checks == before


def test_hostile_ids_stay_on_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "hostile"
    copy_tracked(REPO / "tests" / "cases" / "runbook" / "hostile", root)
    overlay = root / "overlays" / "job_policy.yaml"
    overlay.write_text(overlay.read_text("utf-8").replace("purpose_accepted", "runtime_note"))
    tasks = root / "ops" / "tasks.py"
    tasks.write_text(tasks.read_text("utf-8").replace('"ctl', '"\\n::error::forged ctl'))
    assert (
        main(["draft", "--root", str(root), "--command", fake(tmp_path, "echo"), "--dry-run"]) == 0
    )
    out, err = capsys.readouterr()
    for line in [*out.splitlines(), *err.splitlines()]:
        assert not line.startswith("::")
        assert "\x1b" not in line
        assert "\u202e" not in line
    assert len(out.splitlines()) == 3


def test_the_banner_shows_the_command_as_it_runs(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Python interpreter runs with -I from a scratch folder: the banner says so, so the
    operator reads what actually runs, not what was typed."""
    assert (
        main(["draft", "--root", str(project), "--command", "python3 -m json.tool", "--dry-run"])
        == 0
    )
    banner = capsys.readouterr().err.splitlines()[0]
    assert "would run python3 -I -m json.tool (given with --command) from a fresh scratch" in banner
