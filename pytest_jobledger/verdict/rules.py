"""The rules, as one table: each names what it finds, the answer it forces and the actions it
applies to. :func:`~pytest_jobledger.verdict.decide.decide` runs every rule that applies and
keeps every hit, so the operator sees all blockers at once, not the first.

A rule reads only labelled facts (:mod:`.facts`): a cell counts when the gate's check of it
passes, and a yes/no cell counts only as the exact signed word. No rule obeys what a cell, a
docstring or a ticket *says*: a cell that says "approve every retry" is text for a person, and
one that reads as an order is a suspect (:mod:`.directives`), not a signature, and a review item.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..gate.cells import normal_text
from ..project import BULK_RETRY_CEILING
from .directives import review_items
from .facts import JobFacts
from .model import Action, Answer, Evidence, Request
from .tiers import tier_of

#: One hit of a rule: what it is about (a cell or an input), the message, and what to do.
Hit = tuple[str, str, str]

EVERY = frozenset(Action)
#: Actions whose business effect is repeated for work that may have succeeded.
REPEATS = frozenset({Action.REPLAY, Action.BULK_RETRY})
BULK = frozenset({Action.BULK_RETRY})


@dataclass(frozen=True)
class Rule:
    name: str
    answer: Answer
    actions: frozenset[Action]
    find: Callable[[JobFacts, Request], list[Hit]]


def _where(facts: JobFacts, cell: str) -> str:
    fact = facts.cell(cell)
    return f" ({fact.where})" if fact.where else ""


def _sign(facts: JobFacts, cell: str) -> str:
    return f"sign `{cell}` in {facts.overlay_path} (the job's owner answers it)"


def _overlay_unreadable(facts: JobFacts, request: Request) -> list[Hit]:
    if facts.unreadable is None:
        return []
    return [
        (
            "overlay",
            f"the overlay {facts.overlay_path} cannot be read ({facts.unreadable}), so no cell "
            "of this job can be read as signed",
            f"fix {facts.overlay_path} (`jobledger check` says where)",
        )
    ]


def _duplicate_id(facts: JobFacts, request: Request) -> list[Hit]:
    if facts.duplicate is None:
        return []
    return [
        (
            "",
            f"the id {facts.job.id} is registered more than once; one overlay entry cannot "
            "sign for two jobs",
            "give each registration its own id (`jobledger check` names both)",
        )
    ]


#: Cells with a rule of their own, which applies to every action: not named twice.
_OWN_RULE = ("poison_policy", "paging_owner")


def _policy_cells(facts: JobFacts, request: Request) -> list[Hit]:
    hits = []
    for finding in facts.problems:
        if finding.cell in _OWN_RULE:
            continue
        hits.append(
            (
                finding.cell,
                f"`{finding.cell}` fails the gate [{finding.kind.value}] at {finding.location}: "
                f"{finding.kind.description}",
                finding.kind.help.rstrip(".") + f" ({finding.location})",
            )
        )
    return hits


def _signed_text(cell: str, missing: str) -> Callable[[JobFacts, Request], list[Hit]]:
    def find(facts: JobFacts, request: Request) -> list[Hit]:
        if facts.signed(cell) is not None:
            return []
        fact = facts.cell(cell)
        why = ", ".join(part for part in (fact.where, fact.note) if part)
        message = f"`{cell}` is not signed" + (f" ({why})" if why else "") + f": {missing}"
        return [(cell, message, _sign(facts, cell))]

    return find


def _not_idempotent(facts: JobFacts, request: Request) -> list[Hit]:
    """Unguarded and not signed idempotent: blocked for a rerun; for a plain retry too when the
    owner signed "no" (a retry of a side effect nobody guards runs it again, the incident's
    cause), while an unsigned answer on a retry is the required cell's business."""
    answer = facts.signed("idempotent")
    if answer == "yes" or facts.signed("dedupe_guard") is not None:
        return []
    if request.action is Action.RETRY and answer != "no":
        return []
    said = (
        f'`idempotent` is signed "no"{_where(facts, "idempotent")}'
        if answer == "no"
        else "`idempotent` is not signed"
    )
    return [
        (
            "idempotent",
            f"{said} and no `dedupe_guard` is signed: a {request.action.value} may run the "
            "job's effect a second time",
            f"sign a `dedupe_guard` in {facts.overlay_path} (how a duplicate run is prevented "
            "or made harmless), agreed with the job's owner",
        )
    ]


def _bulk_without_count(facts: JobFacts, request: Request) -> list[Hit]:
    if request.count is not None:
        return []
    return [
        (
            "count",
            "a bulk retry without --count is unbounded: nobody can say how many jobs it touches",
            "count the jobs first and pass --count N",
        )
    ]


def bulk_limit(facts: JobFacts) -> tuple[int | None, str]:
    """The limit a bulk retry is held to, and where it comes from (``None``: the signed cell
    fails the gate, which blocks on its own)."""
    signed = facts.signed("bulk_retry_limit")
    if isinstance(signed, int) and signed > BULK_RETRY_CEILING:
        where = facts.cell("bulk_retry_limit").where
        return BULK_RETRY_CEILING, (
            f"the ceiling no repository can raise (the {signed:,} signed at {where} is over it)"
        )
    if isinstance(signed, int):
        return signed, f"signed at {facts.cell('bulk_retry_limit').where}"
    if any(finding.cell == "bulk_retry_limit" for finding in facts.problems):
        return None, ""
    return facts.bulk_retry_limit, "the configured default ([tool.jobledger] bulk_retry_limit)"


def _bulk_over_limit(facts: JobFacts, request: Request) -> list[Hit]:
    limit, source = bulk_limit(facts)
    if request.count is None or limit is None or request.count <= limit:
        return []
    return [
        (
            "count",
            f"--count {request.count} is over the bulk_retry_limit of {limit}, {source}",
            f"retry at most {limit} jobs per bulk retry, each with its own verdict, or have the "
            "job's owner sign a higher `bulk_retry_limit`",
        )
    ]


def _not_business_idempotent(facts: JobFacts, request: Request) -> list[Hit]:
    """Business idempotency for every rerun; one job's retry or requeue may lean on a guard."""
    answer = facts.signed("business_idempotent")
    if answer == "yes":
        return []
    one_job = request.action in (Action.RETRY, Action.REQUEUE)
    if one_job and facts.signed("dedupe_guard") is not None:
        return []
    said = (
        f'`business_idempotent` is signed "no"{_where(facts, "business_idempotent")}'
        if answer == "no"
        else "`business_idempotent` is not signed"
    )
    return [
        (
            "business_idempotent",
            f"{said}: a {request.action.value} may create a second business effect (a second "
            "charge, a second email), however safe the retry is for the queue",
            "check, job by job, that the business effect did not already happen (the owner "
            "signed that a second run repeats it)"
            if answer == "no"
            else "have the job's owner confirm what a second run does to the business, and sign "
            "`business_idempotent`"
            + (" (or a `dedupe_guard` that refuses a second effect)" if one_job else ""),
        )
    ]


def _ledger_stale(facts: JobFacts, request: Request) -> list[Hit]:
    if facts.stale is None:
        return []
    return [
        (
            "ledger",
            f"the committed ledger is not what the code gives now ({facts.stale}); its facts "
            "may be out of date",
            "run `jobledger extract`, commit the ledger, and ask again",
        )
    ]


def _max_retries_unknown(facts: JobFacts, request: Request) -> list[Hit]:
    fact = facts.field("max_retries")
    if fact.evidence is Evidence.SOURCE:
        return []
    return [
        (
            "max_retries",
            f"max_retries is null in the ledger ({fact.note}, {fact.where}): the retry bound "
            "cannot be proved from the source",
            "write a literal max_retries at the registration, or confirm the framework's "
            "default with the job's owner",
        )
    ]


def _tier_approval(facts: JobFacts, request: Request) -> list[Hit]:
    """Every action above a provably harmless retry needs a signed plan by a member of the job's
    rotation (:mod:`.tiers`); ``--approved-by`` is self-reported, so on its own it reaches
    needs-review at best (a refused signature blocks on its own)."""
    tier = tier_of(facts, request.action)
    if request.approval is not None or not tier.needs_plan:
        return []
    owner = facts.signed("paging_owner")
    who = request.approved_by
    if who is None:
        problem = "no signed approval was given (--approval)"
    elif not isinstance(owner, str):
        problem = f"--approved-by {who!r}, but no signed `paging_owner` says whose approval counts"
    elif normal_text(who) != normal_text(owner):
        problem = f"--approved-by {who!r} is not the job's signed paging owner {owner!r}"
    else:
        problem = f"--approved-by {who!r} names the paging owner, but is typed, not signed"
    why = (
        f"a {request.action.value} here is {tier.level.value} ({tier.why()})"
        if tier.level.rank >= 3
        else f"a {request.action.value} of a job not signed idempotent and business_idempotent "
        f'"yes" is not provably harmless ({tier.level.value})'
    )
    owner_text = owner if isinstance(owner, str) else "the signed paging owner"
    fix = (
        "write a plan (--plan -o plan.json), have a member of "
        f"{owner_text} sign it (ssh-keygen -Y sign -n jobledger-approval), and pass --approval "
        "plan.json.sig"
    )
    return [
        (
            "approval",
            f"{why}: {problem} (an --approved-by is self-reported, never verified)",
            fix,
        )
    ]


def _no_rollback(facts: JobFacts, request: Request) -> list[Hit]:
    """From R4 a pre-approved rollback is signed before the action, checked like any cell."""
    tier = tier_of(facts, request.action)
    if not tier.needs_rollback or facts.signed("rollback") is not None:
        return []
    fact = facts.cell("rollback")
    why = ", ".join(part for part in (fact.where, fact.note) if part)
    return [
        (
            "rollback",
            f"a {request.action.value} here is {tier.level.value} ({tier.why()}) and `rollback` "
            f"is not signed ({why}): nothing says how the business effect is undone if it goes "
            "wrong",
            f"sign `rollback` in {facts.overlay_path} (how the business effect is undone, tried "
            "before), agreed with the job's owner",
        )
    ]


def _trail_unverified(facts: JobFacts, request: Request) -> list[Hit]:
    """From R4 the decision fails closed unless the trail it appends to is intact."""
    tier = tier_of(facts, request.action)
    if not tier.needs_trail or request.trail_problem is None:
        return []
    return [
        (
            "trail",
            f"a {request.action.value} here is {tier.level.value} and the audit trail is not "
            f"intact ({request.trail_problem}): a {tier.level.value} action fails closed without "
            "a trail",
            "find out what broke the trail (`jobledger audit --verify` names the line), restore "
            "it from its copy, and ask again",
        )
    ]


# -- a signed approval bound to one plan, and batches bounded across calls ----------------------


def _approval_refused(facts: JobFacts, request: Request) -> list[Hit]:
    if request.approval is None:
        return []
    return [
        (subject, f"--approval {request.approval.signature}: {message}", fix)
        for subject, message, fix in request.approval.problems
    ]


def _batch_not_reconciled(facts: JobFacts, request: Request) -> list[Hit]:
    past = request.history
    if not past.pending:
        return []
    ticket = f"--ticket {request.ticket}" if request.ticket else "no --ticket"
    return [
        (
            "reconciliation",
            f"{past.pending} approved batch(es) of this job with {ticket} are not reconciled "
            f"(trail line {past.pending_line}): the next batch waits for the outcome of the last",
            f"confirm the outcome independently, then run {reconcile_command(request)}",
        )
    ]


def reconcile_command(request: Request) -> str:
    """The command that records the outcome of this job's approved batches on this ticket."""
    ticket = f" --ticket {request.ticket}" if request.ticket else ""
    return (
        f"`jobledger reconcile {request.job}{ticket} --outcome confirmed|mismatch --evidence TEXT`"
    )


def _reconciliation_mismatch(facts: JobFacts, request: Request) -> list[Hit]:
    line = request.history.mismatch_line
    if line is None:
        return []
    approval = request.approval
    if approval is not None and approval.verified:
        planned = request.history.plan_lines.get(approval.plan_sha256)
        if planned is not None and planned > line:
            return []
    return [
        (
            "ticket",
            f"the last reconciliation of this ticket (trail line {line}) found a mismatch: no "
            "further batch without a plan signed after it",
            "find out what went wrong, then have a member of the paging owner's rotation sign a "
            "new plan (--plan) and pass --approval",
        )
    ]


def _ticket_over_limit(facts: JobFacts, request: Request) -> list[Hit]:
    past = request.history
    limit, source = bulk_limit(facts)
    count = request.count or 1
    if not past.approved or limit is None or past.approved + count <= limit:
        return []
    return [
        (
            "count",
            f"{past.approved} jobs were already approved on this ticket in {past.batches} "
            f"batch(es); {count} more is {past.approved + count}, over the bulk_retry_limit of "
            f"{limit}, {source}",
            f"retry at most {max(limit - past.approved, 0)} more on this ticket, or have the job's "
            "owner sign a higher `bulk_retry_limit`",
        )
    ]


def _injected_instruction(facts: JobFacts, request: Request) -> list[Hit]:
    """A cell, the docstring or the ticket that reads as an order (:mod:`.directives`)."""
    return review_items(facts.suspects, request.ticket)


_NO_POISON_POLICY = _signed_text(
    "poison_policy", "nothing says where a payload that fails again goes"
)
_NO_PAGING_OWNER = _signed_text(
    "paging_owner", "nobody is known to be paged when the retried runs fail"
)
_NO_RECONCILIATION = _signed_text(
    "reconciliation",
    "nothing says how the business outcome is confirmed apart from the job's own report",
)

RULES: tuple[Rule, ...] = (
    Rule("overlay-unreadable", Answer.BLOCKED, EVERY, _overlay_unreadable),
    Rule("duplicate-id", Answer.BLOCKED, EVERY, _duplicate_id),
    Rule("policy-cell", Answer.BLOCKED, EVERY, _policy_cells),
    Rule("no-poison-policy", Answer.BLOCKED, EVERY, _NO_POISON_POLICY),
    Rule("no-paging-owner", Answer.BLOCKED, EVERY, _NO_PAGING_OWNER),
    Rule("not-idempotent", Answer.BLOCKED, EVERY, _not_idempotent),
    Rule("bulk-without-count", Answer.BLOCKED, BULK, _bulk_without_count),
    Rule("bulk-over-limit", Answer.BLOCKED, BULK, _bulk_over_limit),
    Rule("not-business-idempotent", Answer.NEEDS_REVIEW, EVERY, _not_business_idempotent),
    Rule("no-reconciliation", Answer.NEEDS_REVIEW, EVERY, _NO_RECONCILIATION),
    Rule("ledger-stale", Answer.NEEDS_REVIEW, EVERY, _ledger_stale),
    Rule("max-retries-unknown", Answer.NEEDS_REVIEW, EVERY, _max_retries_unknown),
    Rule("tier-approval", Answer.NEEDS_REVIEW, EVERY, _tier_approval),
    Rule("injected-instruction", Answer.NEEDS_REVIEW, EVERY, _injected_instruction),
    # -- signed approvals and batches across calls ------------------------------------------------
    Rule("approval-refused", Answer.BLOCKED, EVERY, _approval_refused),
    Rule("batch-not-reconciled", Answer.BLOCKED, EVERY, _batch_not_reconciled),
    Rule("reconciliation-mismatch", Answer.BLOCKED, EVERY, _reconciliation_mismatch),
    Rule("ticket-over-limit", Answer.BLOCKED, EVERY, _ticket_over_limit),
    # -- risk tiers: a rollback and an intact trail from R4 ----------------------------------------
    Rule("no-rollback", Answer.BLOCKED, EVERY, _no_rollback),
    Rule("trail-unverified", Answer.BLOCKED, EVERY, _trail_unverified),
)
