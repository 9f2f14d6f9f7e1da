"""What many tests need, written once: a bundled example copied into a test's folder, git run in
a scratch repository, and an overlay entry signed with a few cells.

Import it as ``from helpers import example, git, signed_overlay`` (``tests/`` is on the path, as
for ``repo_files``).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from repo_files import REPO, copy_tracked

#: git as a test runs it: no user or system configuration, a fixed identity.
GIT_CONFIG = ("-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false")
GIT_ENV = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}

#: The line of the Celery example's overlay a signed cell is written after (capture_invoice's
#: purpose, the last line of its entry's docstring block).
CAPTURE_INVOICE = "      Charges a captured authorization and writes a ledger row.\n"


def example(name: str, into: Path) -> Path:
    """A fresh copy of ``examples/<name>`` (what a clone holds, nothing a run left) at ``into``."""
    copy_tracked(REPO / "examples" / name, into)
    return into


def git(cwd: Path, *args: str) -> str:
    """``git args`` in ``cwd`` (check=True); its output, stripped."""
    done = subprocess.run(
        ["git", *GIT_CONFIG, *args],
        cwd=cwd,
        env={**os.environ, **GIT_ENV},
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.stdout.strip()


def signed_overlay(root: Path, cells: str, *, after: str = CAPTURE_INVOICE) -> None:
    """Write ``cells`` (YAML lines, indented as an entry's cells) into the overlay of the example
    at ``root``, after the line ``after`` (by default: capture_invoice's entry)."""
    overlay = root / "overlays" / "job_policy.yaml"
    text = overlay.read_text("utf-8")
    assert after in text, f"{after!r} is not in {overlay}"
    overlay.write_text(text.replace(after, after + cells, 1), "utf-8")
