"""Issue 27 item 8: many failing ledger items must not make pytest's failure summary quadratic.

For each failure, pytest's terminal reporter scans every passed setup and teardown report for the
failed item's teardown output (``_get_teardown_reports``): 50,000 stale baseline entries made
50,000 x 100,000 comparisons, and ``pytest --jobledger`` ran for many minutes where ``jobledger
check`` took two seconds. A ledger item's setup and teardown hold no output, so the gate keeps
them out of that pool. Asserted by what the pool holds, never by a time.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from repo_files import copy_tracked

from pytest_jobledger.baseline.model import Baseline, Entry
from pytest_jobledger.findings import Kind

EXAMPLE = Path(__file__).parent.parent / "examples" / "celery"
STALE = 300
CONFTEST = """
def pytest_terminal_summary(terminalreporter):
    terminalreporter.write_line(f"POOL={len(terminalreporter.stats.get('', []))}")
"""


@pytest.mark.parametrize("xdist", [[], ["-n", "2"]], ids=["no-xdist", "xdist"])
def test_stale_entries_leave_no_phase_reports_for_pytest_to_scan(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, xdist: list[str]
) -> None:
    root = pytester.path / "shop"
    copy_tracked(EXAMPLE, root)
    entries = [Entry(f"gone.mod{n}.job", "idempotent", Kind.UNSIGNED) for n in range(STALE)]
    (root / "overlays" / "jobledger-baseline.json").write_text(Baseline.of(entries).dumps())
    (root / "conftest.py").write_text(CONFTEST)
    monkeypatch.chdir(root)
    for name in ("GITHUB_ACTIONS", "PYTEST_ADDOPTS"):
        monkeypatch.delenv(name, raising=False)
    result = pytester.runpytest_subprocess(
        "--jobledger", "-m", "jobledger", "-p", "no:randomly", *xdist, "overlays/job_policy.yaml"
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    outcomes = result.parseoutcomes()
    assert outcomes["failed"] == STALE
    result.stdout.fnmatch_lines(["POOL=0"])
