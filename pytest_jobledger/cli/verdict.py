"""``jobledger verdict JOB_ID --action ...``: approved, blocked or needs-review, with a trail.

The verdict is decided, then appended to the audit trail (a file, SQLite or PostgreSQL), and only
then printed: when the event cannot be written (a read-only folder, a full disk, a lock held too
long, a store that cannot be reached or refuses the write) the command exits 2 with the reason on
stderr and prints nothing that reads as a verdict. No decision without a trail.

Exit codes: 0 approved, 1 blocked, 3 needs-review, 2 a usage error or an audit failure.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
from typing import Any

from .. import __version__, audit
from ..errors import JobledgerError
from ..gate.committed import Snapshot
from ..paths import Shown
from ..session import Session
from ..text import say
from ..verdict import Action, Answer, Request, Verdict, decide
from .cards import verdict_card
from .common import config_from_args, find_job
from .listing import sources_json
from .options import TEXT_JSON, add_format_argument

NAME = "verdict"
HELP = "may this job be retried, requeued or replayed? approved, blocked or needs-review"

EXIT_CODES = {Answer.APPROVED: 0, Answer.BLOCKED: 1, Answer.NEEDS_REVIEW: 3}

#: The audit line's own format; a reader checks it before trusting the other keys.
RECORD_FORMAT = 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("job", metavar="JOB_ID", help="the job's id in the ledger")
    parser.add_argument(
        "--action",
        required=True,
        choices=[action.value for action in Action],
        help="what the operator wants to do",
    )
    parser.add_argument(
        "--count",
        type=int,
        metavar="N",
        help="how many jobs (required for bulk-retry; the other actions touch one)",
    )
    parser.add_argument(
        "--approved-by",
        metavar="WHO",
        help="who approved it (self-reported: recorded, never verified)",
    )
    parser.add_argument("--ticket", metavar="REF", help="the incident or change ticket")
    parser.add_argument("--actor", metavar="NAME", help="who asks (default: the OS user)")
    add_format_argument(parser, TEXT_JSON)


def run(args: argparse.Namespace) -> int:
    request = _request(args)
    config = config_from_args(args)
    snapshot = Session.open(config, baseline=False).committed_view
    verdict = decide(find_job(snapshot, args.job), request)
    log = config.audit_log
    try:
        store = audit.open_store(config.audit_log, root=config.root)
        log = store.display
        line = store.append(audit_record(verdict, snapshot))
    except audit.AuditError as exc:
        raise audit.AuditError(
            f"{exc.message}. No verdict was given: a decision without a trail is refused. Make "
            f"the trail writable or reachable (or point {audit.ENV_URL} or [tool.jobledger] "
            "audit_log elsewhere) and ask again",
            path=exc.path or log,
        ) from exc
    where = f"line {line.number} of {log}"
    if args.format == "json":
        document = {
            **verdict.to_json(),
            **sources_json(snapshot),
            "audit": {
                "path": log,
                "line": line.number,
                "sha256": line.sha256,
            },
            "exit_code": EXIT_CODES[verdict.answer],
        }
        say(json.dumps(document, indent=2, sort_keys=True) + "\n", end="")
    else:
        recorded = f"recorded as {where} (sha256 {line.sha256[:12]})"
        for text in verdict_card(verdict, recorded, Shown.here(config.root)):
            say(text)
    return EXIT_CODES[verdict.answer]


def audit_record(verdict: Verdict, snapshot: Snapshot) -> dict[str, Any]:
    """The audit line's fields (the log adds ``time`` and ``prev``): who asked what, the answer
    and every reason's name, and the sha256 of exactly what the decision read."""
    request = verdict.request
    config = snapshot.config
    return {
        "format": RECORD_FORMAT,
        "actor": request.actor,
        "actor_from": request.actor_from,
        "job": request.job,
        "action": request.action.value,
        "count": request.count,
        "approved_by": request.approved_by,
        "ticket": request.ticket,
        "verdict": verdict.answer.value,
        "blockers": [reason.name for reason in verdict.blockers],
        "review": [reason.name for reason in verdict.review],
        "ledger": config.ledger_display,
        "ledger_origin": snapshot.origin,
        "ledger_sha256": snapshot.ledger_sha256,
        "overlay": config.overlay_display,
        "overlay_sha256": snapshot.overlay_sha256,
        "version": __version__,
    }


def _request(args: argparse.Namespace) -> Request:
    """The operator's request, or a usage error: every bound an operator gives is checked here."""
    action = Action(args.action)
    count = args.count
    if count is not None and count < 1:
        raise JobledgerError(f"--count {count}: a count is 1 or more")
    if count is not None and count > 1 and action is not Action.BULK_RETRY:
        raise JobledgerError(
            f"--count {count} with --action {action.value}: a {action.value} touches one job; "
            "for several, ask for --action bulk-retry, which is bounded by bulk_retry_limit"
        )
    texts = {}
    for option in ("approved_by", "ticket", "actor"):
        value = getattr(args, option)
        if value is not None and not value.strip():
            flag = "--" + option.replace("_", "-")
            raise JobledgerError(f"{flag} is empty; give a name or leave it out")
        texts[option] = value.strip() if value is not None else None
    actor, actor_from = texts["actor"], "--actor"
    if actor is None:
        actor, actor_from = _os_user(), "the OS user"
    return Request(
        job=args.job,
        action=action,
        count=count,
        approved_by=texts["approved_by"],
        ticket=texts["ticket"],
        actor=actor,
        actor_from=actor_from,
    )


def _os_user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name and no passwd entry (a bare container)
        return f"uid {os.getuid()}" if hasattr(os, "getuid") else "unknown"
