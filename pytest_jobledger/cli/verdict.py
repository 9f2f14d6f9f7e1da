"""``jobledger verdict JOB_ID --action ...``: approved, blocked or needs-review, with a trail.

The verdict is decided, then appended to the audit trail (a file, SQLite or PostgreSQL), and only
then printed: when the event cannot be written (a read-only folder, a full disk, a lock held too
long, a store that cannot be reached or refuses the write) the command exits 2 with the reason on
stderr and prints nothing that reads as a verdict. No decision without a trail.

Exit codes: 0 approved, 1 blocked, 3 needs-review, 2 a usage error or an audit failure.

``--plan -o plan.json`` writes the plan an approver signs (``ssh-keygen -Y sign``) instead, and
records it; ``--approval plan.json.sig`` checks that signature against the plan derived again from
the inputs now (:mod:`pytest_jobledger.verdict.approval`), records the check, then the verdict.
The trail's earlier events of the job and ticket (approved counts, reconciliations) are read
before every decision.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import getpass
import json
import os
import sys
from pathlib import Path
from typing import Any

from .. import __version__, audit
from ..core import environment
from ..core.atomic import atomic_write
from ..core.errors import JobledgerError
from ..core.paths import Shown
from ..core.text import one_line, say
from ..gate.committed import Snapshot
from ..memo.redaction import remembered
from ..project import Config
from ..session import Session
from ..verdict import Action, Answer, JobFacts, Request, Verdict, decide
from ..verdict import plan as plans
from ..verdict.approval import ApprovalCheck, changed_by, check, history
from ..verdict.approvers import at_base, default_base
from ..verdict.tiers import tier_of
from .cards import verdict_card
from .common import add_memo_argument, config_from_args, find_job
from .listing import sources_json
from .observations import refused
from .options import TEXT_JSON, add_format_argument

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
    add_memo_argument(parser)
    # -- plans and signed approvals (kept in one block) -------------------------------------------
    parser.add_argument(
        "--plan",
        action="store_true",
        help="write the plan an approver signs (to -o FILE) instead of a verdict, and record it",
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="where --plan writes the plan")
    parser.add_argument(
        "--approval",
        metavar="SIG",
        help="the approver's signature of the plan (plan.json.sig, from ssh-keygen -Y sign -n "
        "jobledger-approval), checked against allowed_signers",
    )
    parser.add_argument(
        "--base",
        metavar="REF",
        help="with --approval: read allowed_signers and the roster as committed at REF, not from "
        "the checkout (default in CI: origin/$GITHUB_BASE_REF); keys or members the checkout "
        "adds are named in a warning and approve nothing",
    )


def run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    with remembered(config):
        return _run(args, config)


def _run(args: argparse.Namespace, config: Config) -> int:
    known = False
    try:
        request = _request(args)
        _plan_options(args)
        session = Session.open(config, baseline=False, memos=True)
        snapshot = session.committed_view
        facts = find_job(snapshot, args.job)
        known = True
        return _answer(args, config, session, snapshot, facts, request)
    except audit.AuditError:
        raise  # the trail is what failed: there is nowhere to record the refusal
    except JobledgerError as error:
        refused(config, args, error, known=known)
        raise


def _answer(
    args: argparse.Namespace,
    config: Config,
    session: Session,
    snapshot: Snapshot,
    facts: JobFacts,
    request: Request,
) -> int:
    """The verdict (or the plan) of a request the tool accepted, recorded before it is shown."""
    store = open_trail(config)
    lines = _read_trail(store)
    records = [(line.number, line.record) for line in lines if line.committed]
    past = history(records, request.job, request.ticket)
    request = dataclasses.replace(
        request, history=past, trail_problem=trail_problem(store, facts, request)
    )
    now = plans.clock(session.today, pinned=bool(environment.read(environment.TODAY).strip()))
    derived = derive_plan(snapshot, request, now, trail_lines=len(records))
    derived = dataclasses.replace(
        derived, trail=audit.identity_of(lines), trail_head=audit.head_of(lines)
    )
    read = audit.Since(len(records), changed_by(records, request.job, request.ticket))
    if args.plan:
        return _write_plan(args, store, derived, decide(facts, request), snapshot, read)
    if args.approval is not None:
        approval = _check(args.approval, derived, now, session, facts, past, args.base)
        request = dataclasses.replace(request, approval=approval)
        digest = approval.plan_sha256
        read = audit.Since(len(records), changed_by(records, request.job, request.ticket, digest))
        recorded(store, approval_record(approval, request), expect=read)
    verdict = decide(facts, request)
    line = recorded(store, audit_record(verdict, snapshot), expect=read)
    log = store.display
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
        note = f"recorded as {where} (sha256 {line.sha256[:12]})"
        for text in verdict_card(verdict, note, Shown.here(config.root)):
            say(text)
    return EXIT_CODES[verdict.answer]


def open_trail(config: Config) -> audit.Store:
    try:
        return audit.open_store(config.verdict.audit_log, root=config.root)
    except audit.AuditError as exc:
        raise _no_answer(exc, config.verdict.audit_log) from exc


def trail_records(store: audit.Store) -> list[tuple[int, Any]]:
    """Every committed line of the trail as ``(line, record)``, read before the decision."""
    return [(line.number, line.record) for line in _read_trail(store) if line.committed]


def _read_trail(store: audit.Store) -> list[audit.Line]:
    try:
        return store.lines()
    except audit.AuditError as exc:
        raise _no_answer(exc, store.display) from exc


def _in_new_trail(store: audit.Store, plan: plans.Plan) -> plans.Plan:
    """``plan`` for a trail that had no line: the trail's identity written first, then named."""
    try:
        audit.identify(store, by="verdict --plan")
    except audit.AuditError as exc:
        raise _no_answer(exc, store.display) from exc
    lines = [line for line in _read_trail(store) if line.committed]
    return dataclasses.replace(
        plan,
        trail=audit.identity_of(lines),
        trail_head=audit.head_of(lines),
        trail_lines=len(lines),
    )


def trail_problem(store: audit.Store, facts: JobFacts, request: Request) -> str | None:
    """Why the trail is not intact, for a tier that fails closed without one (``None``: intact,
    or a tier that does not ask)."""
    if not tier_of(facts, request.action).needs_trail:
        return None
    try:
        report = store.verify()
    except audit.AuditError as exc:
        return exc.message
    if report.ok:
        return None
    return f"line {report.broken}: {report.reason}" if report.broken else report.reason


def recorded(store: audit.Store, record: dict[str, Any], *, expect: audit.Since) -> audit.Line:
    """Append ``record`` (checked against its kind's schema), or refuse to answer: also when
    events appended since the decision read the trail change it (two operators at once)."""
    try:
        return audit.append_event(store, record, expect=expect)
    except audit.AuditError as exc:
        raise _no_answer(exc, store.display) from exc


def _no_answer(exc: audit.AuditError, log: str) -> audit.AuditError:
    return audit.AuditError(
        f"{exc.message}. No verdict was given: a decision without a trail is refused. Make "
        f"the trail writable or reachable (or point {audit.ENV_URL} or [tool.jobledger] "
        "audit_log elsewhere) and ask again",
        path=exc.path or log,
    )


def derive_plan(
    snapshot: Snapshot, request: Request, now: datetime.datetime, *, trail_lines: int
) -> plans.Plan:
    """The plan of ``request`` from the inputs as read now (the session's committed view)."""
    row = snapshot.joined(request.job)
    assert row is not None  # find_job found it
    return plans.new_plan(
        job=request.job,
        action=request.action.value,
        count=request.count,
        ticket=request.ticket,
        ledger_row=plans.row_sha256(row.job),
        overlay_entry=plans.entry_sha256(row.entry),
        version=__version__,
        now=now,
        trail_lines=trail_lines,
    )


def _plan_options(args: argparse.Namespace) -> None:
    if args.plan and args.approval is not None:
        raise JobledgerError(
            "--plan writes a plan to sign; --approval checks a signed one: not both"
        )
    if args.plan and not args.output:
        raise JobledgerError("--plan needs -o FILE: where the plan is written for the approver")
    if args.output and not args.plan:
        raise JobledgerError("-o FILE is where --plan writes the plan; add --plan or leave it out")
    if args.output == "-":
        raise JobledgerError("--plan writes a file the approver signs: give -o FILE, not -")


def _write_plan(
    args: argparse.Namespace,
    store: audit.Store,
    plan: plans.Plan,
    verdict: Verdict,
    snapshot: Snapshot,
    read: audit.Since,
) -> int:
    """A blocked request gets its verdict (recorded) and no plan; otherwise the plan is
    recorded, then written, and its digest printed with the command that signs it."""
    # After a mismatch a new signed plan is the way on, so that blocker does not stop the plan.
    if any(reason.rule != "reconciliation-mismatch" for reason in verdict.blockers):
        line = recorded(store, audit_record(verdict, snapshot), expect=read)
        where = f"recorded as line {line.number} of {store.display} (sha256 {line.sha256[:12]})"
        for text in verdict_card(verdict, where):
            say(text)
        say("No plan was written: resolve every blocker first; a signature cannot approve them.")
        return EXIT_CODES[verdict.answer]
    if plan.trail is None:  # a plan names its trail: an empty one gets its identity first
        plan = _in_new_trail(store, plan)
    path = Path(args.output)
    request = verdict.request
    line = recorded(
        store,
        {
            **_event("plan", request),
            "ticket": request.ticket,
            "plan_sha256": plan.sha256,
            "plan_path": str(path),
            "ledger_row_sha256": plan.ledger_row_sha256,
            "overlay_entry_sha256": plan.overlay_entry_sha256,
            "created": plan.created,
            "expires": plan.expires,
            "trail_head": plan.trail_head,
            # blocked only by a mismatch, which this plan, once signed, answers
            "verdict": "needs-review" if verdict.answer is Answer.BLOCKED else verdict.answer.value,
        },
        expect=read,
    )
    try:
        atomic_write(path, plan.encode(), root=snapshot.config.root, named_by_operator=True)
    except OSError as error:
        raise JobledgerError(
            f"cannot write the plan ({error.strerror or error}); its event is line "
            f"{line.number} of {store.display}, and no plan file was written",
            path=str(path),
        ) from None
    if args.format == "json":
        document = {
            "plan": plan.to_json(),
            "sha256": plan.sha256,
            "path": str(path),
            "audit": {"path": store.display, "line": line.number, "sha256": line.sha256},
        }
        say(json.dumps(document, indent=2, sort_keys=True) + "\n", end="")
        return 0
    say(one_line(f"sha256 {plan.sha256}  {path}"))
    say(one_line(f"PLAN: {request.action.value} of {request.job}, expires {plan.expires}"))
    say(
        one_line(
            f"Sign: ssh-keygen -Y sign -f KEY -n jobledger-approval {path}   (a member of the "
            "job's paging_owner rotation)"
        )
    )
    say(one_line(f"Then: jobledger verdict ... --approval {path}.sig"))
    say(one_line(f"Audit: recorded as line {line.number} of {store.display}"))
    return 0


def _check(
    signature: str,
    derived: plans.Plan,
    now: datetime.datetime,
    session: Session,
    facts: JobFacts,
    past: Any,
    base: str | None = None,
) -> ApprovalCheck:
    config = session.config
    owner = facts.signed("paging_owner")
    owner = owner if isinstance(owner, str) else None
    roster = session.readings.roster
    allowed_text: str | None = None
    allowed_display = (
        config.display(config.allowed_signers_path)
        if config.allowed_signers_path is not None
        else "allowed_signers"
    )
    roster_display = roster.path if roster is not None else None
    ref = default_base(base, os.environ)
    if ref is not None and config.allowed_signers_path is not None:
        approvers = at_base(config, ref, roster)  # never the checkout's: a PR adds no approver
        for warning in approvers.warnings:
            say(one_line(f"jobledger: warning: {warning}"), file=sys.stderr)
        allowed_text, allowed_display = approvers.allowed_text, approvers.allowed_display
        roster, roster_display = approvers.roster, approvers.roster_display
    members = roster.members.get(owner) if roster is not None and owner is not None else None
    return check(
        signature=Path(signature),
        derived=derived,
        now=now,
        allowed_signers=config.allowed_signers_path,
        allowed_display=allowed_display,
        root=config.root,
        owner=owner,
        members=members,
        roster_display=roster_display,
        history=past,
        allowed_text=allowed_text,
    )


def _event(kind: str, request: Request) -> dict[str, Any]:
    return {
        "format": RECORD_FORMAT,
        "event": kind,
        "actor": request.actor,
        "actor_from": request.actor_from,
        "job": request.job,
        "action": request.action.value,
        "count": request.count,
        "version": __version__,
    }


def approval_record(approval: ApprovalCheck, request: Request) -> dict[str, Any]:
    """The approval check's event: the plan, who signed, and each reason it does not approve."""
    return {
        **_event("approval-check", request),
        "ticket": request.ticket,
        **approval.to_json(),
    }


def audit_record(verdict: Verdict, snapshot: Snapshot) -> dict[str, Any]:
    """The audit line's fields (the log adds ``time`` and ``prev``): who asked what, the answer
    and every reason's name, and the sha256 of exactly what the decision read."""
    request = verdict.request
    config = snapshot.config
    approval = request.approval
    return {
        "format": RECORD_FORMAT,
        "event": "verdict",
        "approval_plan_sha256": approval.plan_sha256 if approval is not None else None,
        "approval_principal": approval.principal if approval is not None else None,
        "actor": request.actor,
        "actor_from": request.actor_from,
        "job": request.job,
        "action": request.action.value,
        "count": request.count,
        "approved_by": request.approved_by,
        "ticket": request.ticket,
        "verdict": verdict.answer.value,
        "tier": verdict.tier.level.value if verdict.tier is not None else None,
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
