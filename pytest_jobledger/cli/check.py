"""``jobledger check``: the gate without pytest, with the same findings and messages."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .. import reporters
from ..core.atomic import atomic_write
from ..core.errors import JobledgerError
from ..core.paths import Shown
from ..core.text import say, say_commands
from ..gate.status import STATUS_JOB
from ..gate.today import resolve_today
from ..project import Config
from ..reporters import text
from ..reporters.terminal import use_color
from ..session import Session
from .common import add_cache_argument, config_from_args
from .options import add_format_argument, note
from .selection import add_selection_arguments, selected


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_format_argument(parser, reporters.names())
    parser.add_argument(
        "-o",
        "--output",
        metavar="PATH",
        help="write the report to PATH instead of printing it (e.g. --format sarif -o "
        "jobledger.sarif); never through a symlink or into .git; '-' prints it (the default)",
    )
    add_gate_arguments(parser)
    add_cache_argument(parser)
    add_selection_arguments(parser)


def add_gate_arguments(parser: argparse.ArgumentParser) -> None:
    """``--base`` and ``--today``, shared with ``jobledger diff``."""
    parser.add_argument(
        "--base",
        metavar="REF",
        help="git ref to review changes against (review-after-change), e.g. origin/main",
    )
    parser.add_argument(
        "--today",
        metavar="YYYY-MM-DD",
        help="the day reviews are dated against (default: $JOBLEDGER_TODAY, else today)",
    )


def run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    session = Session.open(config, base=args.base, today=resolve_today(args.today))
    result = session.fresh_view
    for check in result.checks:
        if check.job == STATUS_JOB and check.skipped is not None:
            note(args, f"jobledger: {check.skipped}")
    findings = selected(result.findings, args)
    to_file = args.output not in (None, "-")
    if args.format == "text":
        verbosity = text.QUIET if args.quiet else text.VERBOSE if args.verbose else text.NORMAL
        output = text.render(
            findings,
            config,
            text.Tally.of(result, config),
            verbosity=verbosity,
            color=not to_file and use_color(args.color, sys.stdout, os.environ),
            shown=Shown.here(config.root),
        )
    else:
        output = reporters.get(args.format)(findings, config)
    if to_file:
        _write_report(Path(args.output), output, config)
        note(args, f"jobledger: wrote {Path(args.output)}")
    elif args.format == "github":
        say_commands(output)  # workflow commands we mean, escaped by github/commands
    else:
        say(output, end="")
    failed = any(finding.level.fails for finding in findings)
    return 1 if failed and not args.exit_zero else 0


def _write_report(path: Path, output: str, config: Config) -> None:
    """``-o PATH``: the report through the one writer (the operator's path may leave the root,
    but is never written through a symlink, into ``.git`` or over a FIFO)."""
    try:
        atomic_write(path, output, root=config.root, named_by_operator=True)
    except OSError as error:
        raise JobledgerError(
            f"cannot write the report ({error.strerror or error}); nothing was written",
            path=str(path),
        ) from None
