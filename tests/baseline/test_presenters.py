"""Every presenter sees the baseline the same way: pytest (strict xfail, and a fixed cell fails
as stale), ``jobledger check`` (exit codes, JSON, SARIF "note", GitHub ``::notice``), and
``render``, which refuses while the baseline holds anything."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_jobledger.baseline import Baseline, Entry, apply_baseline
from pytest_jobledger.cli import main
from pytest_jobledger.findings import Check, Finding, GateResult, Kind
from pytest_jobledger.project import load_config
from pytest_jobledger.reporters.runbook import blockers
from pytest_jobledger.session import Session, evaluate

from ._project import BASELINE, CAPTURE, RECEIPT, legacy

OVERLAY = "overlays/job_policy.yaml"


@pytest.fixture
def baselined(tmp_path: Path) -> Path:
    """The legacy project with its six failures in the baseline."""
    root = legacy(tmp_path)
    assert main(["baseline", "--root", str(root)]) == 0
    return root


def _run(pytester: pytest.Pytester, root: Path, *args: str) -> pytest.RunResult:
    shutil.copytree(root, pytester.path, dirs_exist_ok=True)
    run = pytester.runpytest_subprocess if "-n" in args else pytester.runpytest_inprocess
    return run("-p", "no:cacheprovider", "-p", "no:randomly", "--jobledger", "-rfEx", *args)


@pytest.mark.parametrize("mode", [("-n", "2"), ("-p", "no:xdist")], ids=["xdist", "no-xdist"])
def test_baselined_cells_are_strict_xfails(
    pytester: pytest.Pytester, baselined: Path, mode: tuple[str, str]
) -> None:
    result = _run(pytester, baselined, *mode)
    result.assert_outcomes(passed=3 + 4, xfailed=6)
    assert result.ret == 0
    result.stdout.fnmatch_lines(
        [f"XFAIL {OVERLAY}::{RECEIPT}::paging_owner - in the baseline"], consecutive=False
    )


def test_a_fixed_cell_fails_as_a_stale_entry_and_a_new_one_fails(
    pytester: pytest.Pytester, baselined: Path
) -> None:
    overlay = baselined / OVERLAY
    text = overlay.read_text("utf-8").replace("idempotent: no", 'idempotent: "no"')
    overlay.write_text(text.replace("    paging_owner: billing-oncall\n", ""), encoding="utf-8")
    result = _run(pytester, baselined, "-v")  # -v: each failure's whole message
    result.assert_outcomes(passed=3 + 3, xfailed=5, failed=2)
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        [
            f"[[]baseline-stale] The baseline {BASELINE} lists {CAPTURE}::idempotent *",
            f"[[]unsigned] Job {CAPTURE} has an entry at * but no 'paging_owner' cell*",
            f"FAILED {OVERLAY}::{CAPTURE}::idempotent*",
            f"FAILED {OVERLAY}::{CAPTURE}::paging_owner*",
        ],
        consecutive=False,
    )
    assert "jobledger baseline --shrink" in result.stdout.str()


def test_a_strict_xfail_never_passes_quietly(pytester: pytest.Pytester, baselined: Path) -> None:
    # --runxfail runs a known failure as the failure it is: nothing hides it.
    result = _run(pytester, baselined, "--runxfail")
    result.assert_outcomes(passed=7, failed=6)


def test_github_annotations_are_notices(pytester: pytest.Pytester, baselined: Path) -> None:
    result = _run(pytester, baselined, "--jobledger-annotate")
    lines = [line for line in result.outlines if line.startswith("::") and "jobledger " in line]
    # One annotation per job and line: capture_invoice's one cell, send_receipt's five.
    assert len(lines) == 2
    assert all(line.startswith("::notice ") for line in lines)
    assert sum("5 cells" in line for line in lines) == 1
    assert main(["check", "--root", str(baselined), "--format", "github"]) == 0


def test_check_json_and_sarif_mark_the_known_failures(
    baselined: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["check", "--root", str(baselined), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    rows = rows["findings"] if isinstance(rows, dict) else rows
    assert {(row["level"], row.get("baselined")) for row in rows} == {("notice", True)}
    assert main(["check", "--root", str(baselined), "--format", "sarif"]) == 0
    log = json.loads(capsys.readouterr().out)
    results = log["runs"][0]["results"]
    assert [result["level"] for result in results] == ["note"] * 6
    assert {result["ruleId"] for result in results} == {
        "jobledger/unsigned",
        "jobledger/not-yes-no",
    }


def test_render_refuses_while_the_baseline_holds_anything(
    baselined: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(baselined)  # paths are shown from the current folder
    capsys.readouterr()
    assert main(["render", "--root", str(baselined)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[1] == (
        f"jobledger: 6 of them are in the baseline {BASELINE}; the runbook is published only "
        "once the baseline holds nothing"
    )
    assert not (baselined / "docs" / "jobs.md").exists()
    result = evaluate(load_config(root=baselined))
    assert not result.failed  # the gate passes...
    assert len(blockers(result)) == 6  # ...but the page waits for the baseline to empty
    assert [row.signed for row in result.jobs] == [False, False]  # known debt is not signed


def test_status_items_are_never_turned_into_notices(make_finding: Callable[..., Finding]) -> None:
    """Even an entry that names a status item (refused when read from a file) is not applied."""
    status = Finding(Kind.LEDGER_STALE, "jobledger-status", "ledger-fresh", "g.json", 1, "stale")
    cell = make_finding()
    result = GateResult((Check.failed(status), Check.failed(cell)))
    known = Baseline.of(
        [
            Entry("jobledger-status", "ledger-fresh", Kind.LEDGER_STALE),
            Entry(cell.job, cell.cell, cell.kind),
        ]
    )
    applied = apply_baseline(result, known, BASELINE)
    assert [(f.kind, f.level.value) for f in applied.findings] == [
        (Kind.LEDGER_STALE, "error"),
        (Kind.UNSIGNED, "notice"),
    ]
    assert applied.failed


def test_the_runbook_item_waits_for_the_baseline(baselined: Path) -> None:
    pyproject = baselined / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text("utf-8").replace(
            'paths = ["src"]', 'paths = ["src"]\nrunbook = "docs/jobs.md"'
        )
    )
    config = load_config(root=baselined)
    result = Session.open(config).fresh_view
    item = next(check for check in result.checks if check.cell == "runbook-fresh")
    assert item.skipped == (
        "the runbook is not rendered while 6 checks fail (6 known in the baseline); each is "
        "reported on its own"
    )
    assert not result.failed
