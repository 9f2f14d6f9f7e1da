"""``jobledger show JOB_ID``: one job's whole card, each fact with where it comes from."""

from __future__ import annotations

import argparse
import json

from ..core.text import say
from ..session import Session
from .cards import job_card
from .common import config_from_args, find_job
from .listing import sources_json
from .options import TEXT_JSON, add_format_argument

NAME = "show"
HELP = "one job's card: the ledger row, every overlay cell, its findings, where each fact is from"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("job", metavar="JOB_ID", help="the job's id in the ledger")
    add_format_argument(parser, TEXT_JSON)


def run(args: argparse.Namespace) -> int:
    snapshot = Session.open(config_from_args(args), baseline=False).committed_view
    facts = find_job(snapshot, args.job)
    if args.format == "json":
        document = {
            **sources_json(snapshot),
            "job": facts.job.id,
            "row": facts.job.to_json(),
            "facts": [fact.to_json() for fact in (*facts.ledger, *facts.cells.values())],
            "findings": [finding.to_json() for finding in facts.failing],
            "signed": facts.gate_passes,
        }
        say(json.dumps(document, indent=2, sort_keys=True) + "\n", end="")
        return 0
    for line in job_card(snapshot, facts):
        say(line)
    return 0
