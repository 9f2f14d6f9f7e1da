"""``jobledger check``: the gate without pytest, with the same findings and messages."""

from __future__ import annotations

import argparse
import sys

from .. import reporters
from ..gate import evaluate
from ..gate.status import STATUS_JOB
from ..gate.today import resolve_today
from ..reporters.runbook import with_runbook_status
from ..text import one_line
from .common import add_cache_argument, config_from_args

NAME = "check"
HELP = "join the ledger with the overlay and report every unsigned or invalid cell"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=reporters.names(),
        default="text",
        help="output format (default: text)",
    )
    add_gate_arguments(parser)
    add_cache_argument(parser)


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
    result = with_runbook_status(
        evaluate(config, base=args.base, today=resolve_today(args.today)), config
    )
    for check in result.checks:
        if check.job == STATUS_JOB and check.skipped is not None:
            print(one_line(f"jobledger: {check.skipped}"), file=sys.stderr)
    sys.stdout.write(reporters.get(args.format)(result.findings, config))
    return 1 if result.failed else 0
