"""``jobledger show JOB_ID``: one job's whole card, each fact with where it comes from."""

from __future__ import annotations

import argparse
import json

from ..session import Session
from ..text import say
from .cards import job_card
from .common import config_from_args, find_job
from .listing import sources_json

NAME = "show"
HELP = "one job's card: the ledger row, every overlay cell, its findings, where each fact is from"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("job", metavar="JOB_ID", help="the job's id in the ledger")
    parser.add_argument("--json", action="store_true", help="a JSON document for tools")


def run(args: argparse.Namespace) -> int:
    snapshot = Session.open(config_from_args(args), baseline=False).committed_view
    facts = find_job(snapshot, args.job)
    if args.json:
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
