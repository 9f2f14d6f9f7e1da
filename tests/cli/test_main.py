"""``python -m pytest_jobledger`` is the ``jobledger`` command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pytest_jobledger import __version__

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "homegrown"


def test_python_m_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest_jobledger", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"jobledger {__version__}"


def test_python_m_extract_prints_the_committed_ledger() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest_jobledger", "extract", "--root", str(EXAMPLE), "-o", "-"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == (EXAMPLE / "generated" / "job_ledger.json").read_text("utf-8")
