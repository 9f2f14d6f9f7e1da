"""The decision: every rule that applies, every hit kept, one answer, and what to do next.

Pure: the same facts and request give the same verdict, so the rules table test needs no files
and the audit line records exactly what the operator was shown.
"""

from __future__ import annotations

from ..ledger.model import JSONValue
from .facts import JobFacts
from .model import Action, Answer, Control, Evidence, Fact, Quality, Reason, Request, Verdict
from .rules import RULES, bulk_limit, reconcile_command
from .tiers import credential_scope, credential_step, tier_of


def decide(facts: JobFacts, request: Request) -> Verdict:
    """Approved only when no rule finds anything; blocked when any blocking rule does."""
    reasons: list[Reason] = []
    controls: list[Control] = []
    for rule in RULES:
        if request.action not in rule.actions:
            controls.append(Control(rule.name, "not applicable"))
            continue
        hits = rule.find(facts, request)
        reasons.extend(
            Reason(rule.name, rule.answer, message, fix, subject) for subject, message, fix in hits
        )
        found = "blocked" if rule.answer is Answer.BLOCKED else "review"
        controls.append(Control(rule.name, found if hits else "passed"))
    blockers = tuple(reason for reason in reasons if reason.answer is Answer.BLOCKED)
    review = tuple(reason for reason in reasons if reason.answer is Answer.NEEDS_REVIEW)
    if blockers:
        answer = Answer.BLOCKED
    elif review:
        answer = Answer.NEEDS_REVIEW
    else:
        answer = Answer.APPROVED
    tier = tier_of(facts, request.action)
    return Verdict(
        answer=answer,
        request=request,
        blockers=blockers,
        review=review,
        facts=evidence(facts, request),
        next_actions=next_actions(answer, facts, request, blockers + review),
        tier=tier,
        controls=tuple(controls),
        credentials=credential_scope(facts, request) if tier.needs_credential else None,
        open_questions=open_questions(facts, request),
    )


def open_questions(facts: JobFacts, request: Request) -> tuple[str, ...]:
    """What only a person can answer, whatever the verdict: asked, never assumed."""
    tier = tier_of(facts, request.action)
    asked = []
    if tier.needs_credential:
        asked.append(
            "who issues the scoped credential for this "
            f"{request.action.value}, and who revokes it afterwards? (outside jobledger)"
        )
        if request.ticket is None:
            asked.append(
                f"which ticket is this {request.action.value} for? the credential's scope and "
                "the trail name one (--ticket)"
            )
    if facts.signed("business_idempotent") != "yes":
        asked.append(
            "would a second run create a second business effect (a charge, an email)? "
            '`business_idempotent` is not signed "yes"'
        )
    if not tier.needs_rollback and facts.signed("rollback") is None:
        asked.append(
            "if the business outcome is wrong afterwards, how is it undone? no `rollback` is "
            "signed (required from R4)"
        )
    return tuple(asked)


def evidence(facts: JobFacts, request: Request) -> tuple[Fact, ...]:
    """Every fact the rules read, labelled: the ledger's, the overlay's, then the operator's."""
    shown: list[Fact] = []
    if facts.ledger_fact is not None:
        shown.append(facts.ledger_fact)
    shown.extend(facts.field(name) for name in ("registration", "queue", "max_retries"))
    for fact in facts.cells.values():
        if fact.name == "bulk_retry_limit" and bulk_limit(facts)[1].startswith("the configured"):
            default = f"the configured default of {facts.bulk_retry_limit} applies"
            fact = Fact(
                fact.name, None, fact.evidence, fact.where, f"{fact.note}; {default}", fact.quality
            )
        shown.append(fact)
    shown.extend(request_facts(request))
    return tuple(shown)


def request_facts(request: Request) -> list[Fact]:
    """What the operator said: self-reported, never verified (a missing one is ``missing``)."""
    shown = []
    if request.count is not None or request.action is Action.BULK_RETRY:
        shown.append(_given("count", request.count, "--count", "how many jobs, as counted"))
    shown.append(
        _given(
            "approved_by",
            request.approved_by,
            "--approved-by",
            "not verified: this tool cannot check who approved",
        )
    )
    shown.append(_given("ticket", request.ticket, "--ticket", ""))
    if request.approval is not None:
        shown.append(approval_fact(request))
    shown.append(Fact("actor", request.actor, Evidence.SELF_REPORTED, request.actor_from))
    return shown


def _given(name: str, value: JSONValue, option: str, note: str) -> Fact:
    if value is None:
        missing = f"no {option} given"
        return Fact(
            name,
            None,
            Evidence.MISSING,
            None,
            missing,
            Quality("request", "none", "n/a", f"missing: {missing}", "none", "runtime request"),
        )
    return Fact(name, value, Evidence.SELF_REPORTED, option, note)


def next_actions(
    answer: Answer, facts: JobFacts, request: Request, reasons: tuple[Reason, ...]
) -> tuple[str, ...]:
    """What the operator does now: fix each reason, and (unless blocked) reconcile afterwards."""
    steps: list[str] = []
    if answer is Answer.BLOCKED:
        steps.append(f"do not {request.action.value} yet: resolve every blocker, then ask again")
    elif answer is Answer.NEEDS_REVIEW:
        steps.append(
            f"have a person answer each review item before the {request.action.value}; "
            "this verdict does not approve them"
        )
    steps.extend(dict.fromkeys(reason.fix for reason in reasons))
    if answer is not Answer.BLOCKED and tier_of(facts, request.action).needs_credential:
        steps.append(credential_step(facts, request))
    if answer is not Answer.BLOCKED:
        reconciliation = facts.signed("reconciliation")
        if isinstance(reconciliation, str):
            steps.append(
                f"afterwards, reconcile the business outcome by {reconciliation.strip()}, "
                "independently of the job's own success report"
            )
        else:
            steps.append(
                "afterwards, confirm the business outcome independently of the job's own "
                "success report (no reconciliation is signed to say how)"
            )
        on = "on this ticket" if request.ticket else "asked without a ticket"
        steps.append(
            f"then record what you found with {reconcile_command(request)}; the next "
            f"rerun of this job {on} waits for it"
        )
    return tuple(steps)


def approval_fact(request: Request) -> Fact:
    """The signed approval: who signed which plan, checked by ssh-keygen; or why it does not
    approve this request (then it is no evidence at all)."""
    approval = request.approval
    assert approval is not None
    plan = f"plan sha256 {approval.plan_sha256[:12]}"
    if approval.verified:
        note = (
            f"verified with ssh-keygen over {plan}; {approval.principal} is a member of "
            f"{approval.rotation}"
        )
        graded = Quality(
            "approval",
            f"sha256:{approval.plan_sha256[:12]} (the plan signed)",
            "fresh: derived now, unexpired",
            "complete",
            "signed by a person, verified by ssh-keygen",
            "signed approval",
        )
        return Fact(
            "approval", approval.principal, Evidence.SIGNED, approval.signature, note, graded
        )
    refused = ", ".join(subject for subject, _, _ in approval.problems)
    graded = Quality(
        "approval",
        f"sha256:{approval.plan_sha256[:12]} (the plan signed)",
        "n/a",
        f"refused: {refused}",
        "none: not accepted",
        "signed approval",
    )
    return Fact(
        "approval", None, Evidence.MISSING, approval.signature, f"refused ({refused})", graded
    )
