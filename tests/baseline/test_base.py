"""The pull request cannot vouch for itself: with a base, a baseline entry the base's baseline
does not hold fails as ``baseline-grown`` through every route that takes a base (``jobledger check
--base`` run as a real process, ``pytest --jobledger --jobledger-base``), in a real repository."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from gate._repo import git

from ._project import BASELINE, CAPTURE, baseline, legacy

OVERLAY = "overlays/job_policy.yaml"


def _grown_repository(tmp_path: Path) -> Path:
    """A base whose baseline holds the six legacy failures, and a head that adds a seventh
    failure and runs `jobledger baseline` to hide it (what a hostile pull request would do)."""
    root = legacy(tmp_path)
    assert baseline(root) == 0
    git("init", "-q", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "base", cwd=root)
    overlay = root / OVERLAY
    text = overlay.read_text("utf-8")
    overlay.write_text(text.replace("paging_owner: billing-oncall", "paging_owner: ''"), "utf-8")
    assert baseline(root) == 0
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "head: hide a new failure", cwd=root)
    return root


def _check(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_jobledger", "check", "--root", str(root), *args],
        cwd=root,  # paths are shown from the current folder
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_check_with_a_base_fails_on_the_grown_entry(tmp_path: Path) -> None:
    root = _grown_repository(tmp_path)
    # Without a base there is nothing to hold the file to: the head's baseline applies.
    assert _check(root).returncode == 0
    done = _check(root, "--base", "HEAD~1")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    grown = [line for line in done.stdout.splitlines() if "[baseline-grown]" in line]
    assert len(grown) == 1, done.stdout
    assert grown[0].startswith(f"  {BASELINE}:")
    assert f"{CAPTURE}::paging_owner" in grown[0]
    # The line is the short form; -v gives the whole message under it.
    assert len(grown[0]) <= 160
    verbose = " ".join(
        line.strip() for line in _check(root, "--base", "HEAD~1", "-v").stdout.splitlines()
    )
    assert "the baseline at HEAD~1 does not list it" in verbose
    # The cell itself fails too: the grown entry turned nothing into a notice.
    assert any("paging_owner [unsigned]" in line for line in done.stdout.splitlines())


def test_pytest_with_a_base_fails_on_the_grown_entry(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    root = _grown_repository(tmp_path)
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "-p",
        "no:randomly",
        "-p",
        "no:xdist",
        f"--rootdir={root}",
        "--jobledger",
        f"--jobledger-root={root}",
        "--jobledger-base=HEAD~1",
        "-rf",
        str(root),
    )
    assert result.ret == 1
    result.assert_outcomes(passed=7, failed=2, xfailed=6)
    result.stdout.fnmatch_lines(
        [
            f"FAILED *{OVERLAY}::{CAPTURE}::paging_owner*",
            f"FAILED *{OVERLAY}::{CAPTURE}::baseline-grown[[]paging_owner[]]*",
        ],
        consecutive=False,
    )
