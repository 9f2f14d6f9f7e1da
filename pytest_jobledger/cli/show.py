"""``jobledger show JOB_ID``: one job's whole card, each fact with where it comes from."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..core.redact import redact
from ..core.text import say
from ..memo.redaction import remembered
from ..project import Config
from ..session import Session
from ..verdict import JobFacts
from .cards import job_card
from .common import add_memo_argument, config_from_args, find_job
from .listing import sources_json
from .observations import observed
from .options import TEXT_JSON, add_format_argument


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("job", metavar="JOB_ID", help="the job's id in the ledger")
    add_format_argument(parser, TEXT_JSON)
    add_memo_argument(parser)


def minimised_row(facts: JobFacts) -> dict[str, Any]:
    """The ledger row as ``--json`` shows it: its docstring through the one redaction step."""
    row = facts.job.to_json()
    if isinstance(row.get("docstring"), str):
        row["docstring"] = redact(row["docstring"], facts.job.location)
    return row


def run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    with remembered(config):
        return _run(args, config)


def _run(args: argparse.Namespace, config: Config) -> int:
    snapshot = Session.open(config, baseline=False, memos=True).committed_view
    facts = find_job(snapshot, args.job)
    observed(config, snapshot, args, command="show", job=facts.job.id, filters={}, shown=1)
    if args.format == "json":
        document = {
            **sources_json(snapshot),
            "job": facts.job.id,
            "row": minimised_row(facts),
            "facts": [fact.to_json() for fact in (*facts.ledger, *facts.cells.values())],
            "findings": [finding.to_json() for finding in facts.failing],
            "signed": facts.gate_passes,
        }
        say(json.dumps(document, indent=2, sort_keys=True) + "\n", end="")
        return 0
    for line in job_card(snapshot, facts):
        say(line)
    return 0
