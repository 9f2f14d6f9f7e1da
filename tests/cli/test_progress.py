"""``jobledger extract --progress`` in a log (not a terminal): the last progress line agrees with
the ``wrote ...: N jobs`` line after it, on a cold run and on a warm one (jobs read back from the
content cache are never parsed, so the running count alone said 0)."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

from repo_files import REPO, copy_tracked

from pytest_jobledger.cli.progress import TerminalProgress

PROGRESS = re.compile(r"jobledger: ([\d,]+) files, ([\d,]+) read, ([\d,]+) parsed, ([\d,]+) jobs")
WROTE = re.compile(r"jobledger: wrote stdout: (\d+) jobs")


def _extract(root: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "pytest_jobledger", "extract", "--progress", "-o", "-"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stderr.splitlines()


def test_the_last_progress_line_agrees_with_the_count(tmp_path: Path) -> None:
    root = copy_tracked(REPO / "examples" / "celery", tmp_path / "shop")
    for run in ("cold", "warm"):
        lines = _extract(root)
        shown = [PROGRESS.fullmatch(line) for line in lines]
        progress = [found for found in shown if found is not None]
        wrote = [found for found in map(WROTE.match, lines) if found is not None]
        assert progress, (run, lines)
        assert len(wrote) == 1, (run, lines)
        assert progress[-1].group(4) == wrote[0].group(1), (run, lines)
        assert lines.index(progress[-1].string) < lines.index(wrote[0].string)


def test_finish_writes_the_final_count_once() -> None:
    stream = io.StringIO()
    progress = TerminalProgress(stream, forced=True)
    progress.update(files=3, read=1, parsed=1, jobs=0)
    progress.update(files=3, read=3, parsed=1, jobs=0)  # within the interval: not shown
    progress.done()
    progress.finish(jobs=11)
    progress.finish(jobs=11)
    assert stream.getvalue().splitlines() == [
        "jobledger: 3 files, 1 read, 1 parsed, 0 jobs",
        "jobledger: 3 files, 3 read, 1 parsed, 11 jobs",
    ]
