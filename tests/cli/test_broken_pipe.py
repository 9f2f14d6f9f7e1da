"""A reader that goes away (``jobledger list | head -1``) ends the command quietly: exit 141 (128 +
SIGPIPE, what a shell reports for ``cat`` there), no traceback, whatever the command.

The pipes are real: the read end is closed before the command writes, so every run meets the
closed pipe (no race); a ``head -1`` pipeline checks the everyday case, where either outcome (the
reader left before or after the last write) must be quiet.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from repo_files import REPO, copy_tracked

JOB = "acme_shop.billing.tasks.capture_invoice"
COMMANDS = {
    "list": ["list"],
    "check": ["check"],
    "verdict": ["verdict", JOB, "--action", "retry", "--actor", "alice"],
    "audit": ["audit"],
}


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Celery example with a trail of one verdict (so ``audit`` has lines to print)."""
    root = copy_tracked(REPO / "examples" / "celery", tmp_path_factory.mktemp("pipe") / "shop")
    _jobledger(root, COMMANDS["verdict"], stdout=subprocess.DEVNULL)
    return root


def _jobledger(root: Path, args: list[str], stdout: int) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_jobledger", *args, "--root", str(root)],
        stdout=stdout,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_closed_pipe_ends_the_command_quietly(shop: Path, command: str) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line is written
    try:
        done = _jobledger(shop, COMMANDS[command], stdout=write)
    finally:
        os.close(write)
    assert done.returncode == 141, done.stderr
    assert done.stderr == b""


def test_head_takes_the_first_line_and_nothing_complains(shop: Path) -> None:
    lister = subprocess.Popen(
        [sys.executable, "-m", "pytest_jobledger", "list", "--root", str(shop)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    assert lister.stdout is not None
    head = subprocess.run(
        ["head", "-1"], stdin=lister.stdout, capture_output=True, timeout=120, check=False
    )
    lister.stdout.close()
    _, errors = lister.communicate(timeout=120)
    assert head.returncode == 0
    assert len(head.stdout.splitlines()) == 1
    assert lister.returncode in (0, 141)
    assert errors == b""
