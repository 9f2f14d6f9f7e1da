"""``jobledger check``: the gate without pytest, with the same findings and messages."""

from __future__ import annotations

import argparse
import sys

from .. import reporters
from ..gate import evaluate
from ..reporters.runbook import with_runbook_status
from .common import config_from_args

NAME = "check"
HELP = "join the ledger with the overlay and report every unsigned or invalid cell"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=reporters.names(),
        default="text",
        help="output format (default: text)",
    )


def run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    result = with_runbook_status(evaluate(config), config)
    findings = result.findings
    sys.stdout.write(reporters.get(args.format)(findings, config))
    return 1 if findings else 0
