"""``jobledger reconcile JOB_ID --ticket T --outcome confirmed|mismatch --evidence TEXT``.

Reconciliation as a recorded step: after an approved batch, someone checks the business outcome
independently of the job's own success report, and says what they found. The event is appended
to the trail (checked against its schema first); the next batch on the ticket waits for it, and
a mismatch blocks further batches until an approver signs a new plan. Nothing to reconcile (no
approved batch of the job on that ticket since the last reconciliation) is a usage error.

Exit codes: 0 recorded, 2 a usage error or an audit failure (nothing recorded).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from .. import __version__
from ..audit import Since
from ..core.errors import JobledgerError
from ..core.redact import redact
from ..core.text import one_line, say
from ..session import Session
from ..verdict.approval import changed_by, history
from .common import config_from_args, find_job
from .options import TEXT_JSON, add_format_argument
from .verdict import RECORD_FORMAT, _os_user, open_trail, recorded, trail_records

#: What a person may write as evidence: a sentence or a link, not a report.
MAX_EVIDENCE_CHARS = 4096


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("job", metavar="JOB_ID", help="the job's id in the ledger")
    parser.add_argument(
        "--ticket",
        metavar="REF",
        help="the incident's ticket (without it: the approved batches asked without a --ticket)",
    )
    parser.add_argument(
        "--outcome",
        required=True,
        choices=("confirmed", "mismatch"),
        help="confirmed: the business outcome is what the batches should have done",
    )
    parser.add_argument(
        "--evidence",
        required=True,
        metavar="TEXT",
        help="how it was checked (a report, a query, a link): recorded as typed",
    )
    parser.add_argument("--actor", metavar="NAME", help="who checked (default: the OS user)")
    add_format_argument(parser, TEXT_JSON)


def run(args: argparse.Namespace) -> int:
    texts = {}
    for option in ("ticket", "evidence", "actor"):
        value = getattr(args, option)
        if value is not None and not value.strip():
            raise JobledgerError(f"--{option} is empty; say what it is")
        texts[option] = value.strip() if value is not None else None
    evidence = texts["evidence"]
    assert evidence is not None
    if len(evidence) > MAX_EVIDENCE_CHARS:
        raise JobledgerError(
            f"--evidence is {len(evidence):,} characters; say how it was checked in at most "
            f"{MAX_EVIDENCE_CHARS:,} and link the report"
        )
    config = config_from_args(args)
    snapshot = Session.open(config, baseline=False).committed_view
    find_job(snapshot, args.job)
    store = open_trail(config)
    ticket = texts["ticket"]
    records = trail_records(store)
    past = history(records, args.job, ticket)
    on = f"on ticket {ticket}" if ticket is not None else "asked without a --ticket"
    if not past.pending:
        raise JobledgerError(
            f"nothing to reconcile: no approved batch of {args.job} {on} since the "
            f"last reconciliation ({past.batches} approved in all); nothing was recorded"
        )
    actor, actor_from = texts["actor"], "--actor"
    if actor is None:
        actor, actor_from = _os_user(), "the OS user"
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "event": "reconciliation",
        "actor": actor,
        "actor_from": actor_from,
        "job": args.job,
        "ticket": ticket,
        "outcome": args.outcome,
        "evidence": redact(evidence, "--evidence"),
        "batches": past.pending,
        "version": __version__,
    }
    line = recorded(
        store, record, expect=Since(len(records), changed_by(records, args.job, ticket))
    )
    if args.format == "json":
        document = {
            "recorded": record,
            "audit": {"path": store.display, "line": line.number, "sha256": line.sha256},
        }
        say(json.dumps(document, indent=2, sort_keys=True) + "\n", end="")
        return 0
    say(one_line(f"RECONCILED ({args.outcome}): {past.pending} batch(es) of {args.job}, {on}"))
    if args.outcome == "mismatch":
        say(
            "Further batches on this ticket are blocked until a member of the paging owner's "
            "rotation signs a new plan (jobledger verdict ... --plan)."
        )
    say(one_line(f"Audit: recorded as line {line.number} of {store.display}"))
    return 0
