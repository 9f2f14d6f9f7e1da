"""What the composite action runs in its private venv: ``python -m pytest_jobledger.github.action``.

The action's inputs arrive as environment variables (never pasted into a shell script), and
``pytest-args`` is split here with shell quoting rules but never handed to a shell. The gate runs
on the overlay file alone (no test module of the project is imported), without the project's
``conftest.py`` files and ``addopts``: those may need packages that the private venv does not
have, and the ledger items need none of them.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..config import load_config
from ..errors import JobledgerError

BASE_ARGS: tuple[str, ...] = (
    "--jobledger",
    "-m",
    "jobledger",
    "--noconftest",
    "-o",
    "addopts=",
    "-p",
    "no:cacheprovider",
)


def pytest_arguments(environ: Mapping[str, str], cwd: Path) -> list[str]:
    """The pytest command line for the action's inputs (``ValueError`` on unbalanced quotes)."""
    args = list(BASE_ARGS)
    sarif = environ.get("JOBLEDGER_SARIF_FILE", "")
    if sarif:
        args += ["--jobledger-sarif", sarif]
    user = shlex.split(environ.get("JOBLEDGER_PYTEST_ARGS", ""))
    target: list[str] = []
    try:
        overlay = load_config(cwd=cwd).overlay_path
    except JobledgerError:
        overlay = None  # pytest will report the configuration error itself
    if overlay is not None and overlay.is_file():
        target = [os.path.relpath(overlay, cwd)]
    else:
        # No overlay yet: point pytest at an empty folder so it imports none of the project's
        # tests; the gate adds its items (every job unsigned) whatever pytest was given.
        target = [f"--rootdir={cwd}", tempfile.mkdtemp(prefix="jobledger-empty-")]
    return [*args, *user, *target]


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = pytest_arguments(os.environ, Path.cwd())
    except ValueError as error:
        print(f"jobledger: pytest-args: {error}", file=sys.stderr)
        return 2
    command = [sys.executable, "-m", "pytest", *args, *(argv or ())]
    print("jobledger: pytest " + shlex.join(args), flush=True)
    # A child process, not pytest.main(): pytest must import (and assertion-rewrite) the plugin.
    return subprocess.run(command, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
