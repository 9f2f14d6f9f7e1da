"""``jobledger gate``: ``pytest --jobledger`` alone, exactly as the GitHub Action runs it.

``pytest --jobledger`` inside a project runs with the project's test configuration: its
``conftest.py``, ``addopts``, plugins and settings (Django's, say), which the gate needs none
of. This runs the gate with none of them (the Action's own command, see
:mod:`pytest_jobledger.github.action`), so a run on a laptop and the pull request's check agree:
``jobledger gate -- -n 2 -k billing`` passes what follows ``--`` to pytest.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from .options import add_format_argument

    add_format_argument(parser, ("text",), note="; the report is pytest's own")
    parser.add_argument(
        "pytest_args",
        nargs=argparse.REMAINDER,
        metavar="-- PYTEST_ARGS",
        help="arguments for pytest after `--` (e.g. -- -n 2 -k billing)",
    )


def run(args: argparse.Namespace) -> int:
    from ..github.action import run_gate

    extra = list(args.pytest_args)
    if extra[:1] == ["--"]:
        extra = extra[1:]
    if args.config:
        extra = [f"--jobledger-config={Path(args.config).resolve()}", *extra]
    project = Path(args.root) if args.root else Path.cwd()
    return run_gate(project, extra)
