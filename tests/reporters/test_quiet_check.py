"""Quiet when green, short when red: what ``jobledger check`` and ``pytest --jobledger`` print.

A green run prints one line (as ruff and mypy do when clean), however many known (baselined)
items it holds; ``-v`` lists them. A red run prints one line per finding of at most 160
characters, and pytest's failure text is the same short line. ``--select``/``--ignore`` of
finding kinds and ``--exit-zero`` are spelled as ruff spells them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from repo_files import REPO, copy_tracked

from pytest_jobledger.cli import main

CASES = REPO / "tests" / "cases" / "gate"
WIDTH = 160


@pytest.fixture
def known(tmp_path: Path) -> Path:
    """The Celery example with no overlay and every failure baselined: green, 40 known items."""
    root = copy_tracked(REPO / "examples" / "celery", tmp_path / "shop")
    (root / "overlays" / "job_policy.yaml").unlink()
    assert main(["baseline", "--root", str(root)]) == 0
    return root


@pytest.fixture
def red(tmp_path: Path) -> Path:
    """A case with 20 failing findings of four kinds, its fresh ledger committed."""
    root = copy_tracked(CASES / "check_grouping", tmp_path / "red")
    assert main(["extract", "--root", str(root)]) == 0
    return root


def _check(root: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[int, list[str]]:
    capsys.readouterr()
    here = Path.cwd()
    os.chdir(root)  # as a person runs it: paths are shown from the current folder
    try:
        code = main(["check", "--root", str(root), "--color", "never", *flags])
    finally:
        os.chdir(here)
    return code, capsys.readouterr().out.splitlines()


def test_a_green_check_with_known_items_prints_one_line(
    known: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, lines = _check(known, capsys)
    assert code == 0
    assert lines == [
        "jobledger: 8 jobs, 0 of 40 cells signed; 40 known (not failing; -v lists them)"
    ]


def test_verbose_lists_the_known_items(known: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = _check(known, capsys, "-v")
    assert code == 0
    assert "known (notices, not counted as failures):" in lines
    assert sum("[unsigned]" in line for line in lines) == 40


def test_every_first_line_of_a_red_check_fits(
    red: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, lines = _check(red, capsys)
    assert code == 1
    findings = [line for line in lines if not line.startswith(("next:", "jobledger:"))]
    assert findings
    assert max(len(line) for line in findings) <= WIDTH
    # The whole message is one -v away, indented under its line.
    _, verbose = _check(red, capsys, "-v")
    under = [line for line in verbose if line.startswith("    ")]
    assert any(
        "rename the entry to the job's new id (keeping its signed cells)" in line for line in under
    )


def test_select_and_ignore_take_kind_names(red: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = _check(red, capsys, "--select", "orphan,unknown-key")
    assert code == 1
    assert lines[-3].startswith("jobledger: 2 failing findings (1 orphan, 1 unknown-key)")
    code, lines = _check(red, capsys, "--ignore", "unsigned", "--ignore", "not-yes-no,orphan")
    assert code == 1
    assert any("(1 unknown-key)" in line for line in lines)
    code, lines = _check(red, capsys, "--select", "orphan", "--ignore", "orphan")
    assert (code, lines[-1]) == (0, "jobledger: 6 jobs, 12 of 30 cells signed")


def test_an_unknown_kind_is_a_usage_error_with_a_suggestion(
    red: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--root", str(red), "--select", "orphans"]) == 2
    error = capsys.readouterr().err
    assert "'orphans' is not a finding kind (did you mean orphan?)" in error


def test_exit_zero_keeps_the_report(red: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, report = _check(red, capsys)
    code, lines = _check(red, capsys, "--exit-zero")
    assert (code, lines) == (0, report)


def test_pytest_prints_the_same_short_line(red: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--jobledger", "-p", "no:cacheprovider", "-q", "-rN"],
        cwd=red,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    shown = [line for line in done.stdout.splitlines() if line.startswith("[")]
    # No "did you mean" naming a sibling job of the same module: void_invoice is not a typo of
    # refund_invoice.
    assert (
        "[orphan] The entry billing.tasks.void_invoice at overlays/job_policy.yaml:26 matches no "
        "job in the ledger."
    ) in shown
    assert max(len(line) for line in shown) <= WIDTH
    assert len(shown) == 20
