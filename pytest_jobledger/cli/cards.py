"""The text a person reads during an incident: fact lines, a job's card and a verdict's card.

Every line goes through :func:`~pytest_jobledger.core.text.one_line`: a job id, a cell or a
docstring comes from the repository and may try to start a second line (or a forged workflow
command).
Values are shown as JSON (quoted text, bare numbers), so a signed ``"no"`` reads as the word a
person wrote, and long text is clipped; ``--json`` has it whole.

Paths are shown from the current folder (:class:`~pytest_jobledger.core.paths.Shown`), so a place
opens from where the command ran; ``--json`` keeps them relative to the project root.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from ..core.paths import Shown
from ..core.redact import redact
from ..core.text import clip, one_line, plural
from ..findings import Finding
from ..gate.committed import COMMITTED, Snapshot
from ..verdict import Evidence, Fact, JobFacts, Reason, Verdict, tiers
from ..verdict.quality import quality_lines

#: How much of a value a card shows on one line.
VALUE_WIDTH = 100


def show_value(value: Any) -> str:
    """A value as JSON on one line (a block scalar's closing newline is not shown), clipped."""
    if isinstance(value, str):
        value = value.strip()
    return clip(json.dumps(value, ensure_ascii=False, sort_keys=True), VALUE_WIDTH)


def fact_line(fact: Fact, width: int = 19, shown: Shown | None = None) -> str:
    """``  name  value  [evidence where] note``, e.g. ``idempotent  "no"  [signed o.yaml:9]``."""
    value = "" if fact.value is None else f"{show_value(fact.value)}  "
    where = fact.where if fact.where is None or shown is None else shown.location(fact.where)
    label = fact.evidence.value + (f" {where}" if where else "")
    note = f" {fact.note}" if fact.note else ""
    return one_line(f"  {fact.name:<{width}} {value}[{label}]{note}")


def fact_lines(facts: Iterable[Fact], shown: Shown | None = None) -> list[str]:
    facts = list(facts)
    width = max((len(fact.name) for fact in facts), default=0)
    return [fact_line(fact, width, shown) for fact in facts]


def reason_lines(title: str, reasons: Sequence[Reason]) -> list[str]:
    if not reasons:
        return []
    lines = [f"{title} ({len(reasons)}):"]
    lines.extend(one_line(f"  {reason.name}: {reason.message}") for reason in reasons)
    return lines


def finding_line(finding: Finding, shown: Shown | None = None) -> str:
    where = finding.location if shown is None else f"{shown.path(finding.path)}:{finding.line}"
    return one_line(f"  {where}: [{finding.kind.value}] {finding.message}")


def ledger_line(snapshot: Snapshot) -> str:
    """Which ledger a card reads, and whether it is stale: always said, never implied."""
    config = snapshot.config
    display = Shown.here(config.root).path(config.ledger_display)
    if snapshot.origin != COMMITTED:
        where = f"no committed ledger at {display}" if not snapshot.stale else snapshot.stale
        return one_line(f"ledger: a fresh extraction of the code ({where})")
    if snapshot.stale:
        return one_line(
            f"ledger: {display} (committed) is STALE against the code: {snapshot.stale}; run "
            "`jobledger extract` and commit it"
        )
    return one_line(f"ledger: {display} (committed), the same as a fresh extraction")


def overlay_line(snapshot: Snapshot) -> str:
    config = snapshot.config
    display = Shown.here(config.root).path(config.overlay_display)
    if snapshot.overlay_error is not None:
        return one_line(f"overlay: {display} cannot be read: {snapshot.overlay_error}")
    if snapshot.overlay is not None and not snapshot.overlay.exists:
        return one_line(f"overlay: {display} does not exist; nothing is signed")
    return one_line(f"overlay: {display} (signed cells are a person's claim, not a proof)")


def job_card(snapshot: Snapshot, facts: JobFacts) -> list[str]:
    """``jobledger show``: the ledger row, every cell, the job's findings, each fact's source."""
    job = facts.job
    shown = Shown.here(snapshot.config.root)
    row = snapshot.joined(job.id)
    failing = facts.failing
    lines = [one_line(job.id), ledger_line(snapshot), overlay_line(snapshot)]
    if facts.gate_passes:
        lines.append("state: signed (every cell the gate judges passes)")
    else:
        lines.append(f"state: {len(failing)} failing (see Findings)")
    lines.append("")
    lines.append(one_line(f"Ledger row (read from the code at {shown.location(job.location)}):"))
    extra = []
    if job.docstring is not None:
        docstring = redact(job.docstring, job.location)
        extra.append(Fact("docstring", docstring, Evidence.SOURCE, job.location))
    if job.options:
        extra.append(Fact("options", dict(job.options), Evidence.SOURCE, job.location))
    lines.extend(fact_lines([*facts.ledger, *extra], shown))
    lines.append("")
    lines.append("Overlay cells:")
    lines.extend(fact_lines(facts.cells.values(), shown))
    if row is not None and row.entry is not None:
        known = set(facts.cells)
        others = [cell for cell in row.entry.cells if cell.key not in known]
        lines.extend(one_line(f"  {cell.key}  (not a cell: see Findings)") for cell in others)
    lines.append("")
    if facts.unreadable is not None:
        lines.append(one_line(f"Findings: the overlay cannot be read ({facts.unreadable})"))
    elif failing:
        lines.append(f"Findings ({len(failing)}):")
        lines.extend(finding_line(finding, shown) for finding in failing)
    else:
        lines.append("Findings: none; every cell the gate judges passes")
    return lines


def verdict_card(verdict: Verdict, audit: str, shown: Shown | None = None) -> list[str]:
    """The whole response minimum, in this order: the answer, the blockers (and review items),
    the tier and what it required, idempotency (technical and business), the bounded retry, the
    reconciliation, the evidence with its quality, the control results, the audit event, the next
    actions and the open questions (each place from the current folder, with ``shown``)."""
    request = verdict.request
    count = ""
    if request.count is not None:
        count = f" of {plural(request.count, 'job')}"
    lines = [
        one_line(f"{verdict.answer.value.upper()}: {request.action.value}{count} of {request.job}")
    ]
    if verdict.blockers:
        lines.extend(reason_lines("Blockers", verdict.blockers))
    else:
        lines.append("Blockers: none")
    lines.extend(reason_lines("Review", verdict.review))
    lines.extend(_tier_lines(verdict))
    lines.extend(_particulars(verdict, shown))
    lines.append("Evidence (source: the code; signed: a person's claim; self-reported: as typed):")
    lines.extend(fact_lines(verdict.facts, shown))
    lines.extend(quality_lines(verdict.facts))
    lines.extend(_control_lines(verdict))
    lines.append(one_line(f"Audit: {audit}"))
    lines.append("Next:")
    lines.extend(
        one_line(f"  {number}. {step}") for number, step in enumerate(verdict.next_actions, 1)
    )
    if verdict.open_questions:
        lines.append("Open questions:")
        lines.extend(one_line(f"  - {question}") for question in verdict.open_questions)
    return lines


def _fact(verdict: Verdict, name: str) -> Fact | None:
    return next((fact for fact in verdict.facts if fact.name == name), None)


def _said(fact: Fact | None, shown: Shown | None = None) -> str:
    """A fact in a few words: its value and where it comes from, or why it is missing."""
    if fact is None:
        return "not read"
    if fact.value is None or fact.evidence in (Evidence.MISSING, Evidence.SUSPECT):
        why = fact.note or "not given"
        return f"not usable ({fact.evidence.value}: {why})"
    where = fact.where if fact.where is None or shown is None else shown.location(fact.where)
    return f"{show_value(fact.value)} [{fact.evidence.value}{f' {where}' if where else ''}]"


def _tier_lines(verdict: Verdict) -> list[str]:
    tier = verdict.tier
    if tier is None:
        return []
    request = verdict.request
    lines = [one_line(f"Tier: {tier.level.value} ({tier.why()}); it requires:")]
    approval = request.approval
    rollback = _fact(verdict, "rollback")
    for wanted in tier.requires():
        if wanted == tiers.PLAN:
            if approval is None:
                state = "not given (--approval)"
            elif approval.verified:
                state = (
                    f"met: {approval.principal} of {approval.rotation} signed {approval.signature}"
                )
            else:
                state = "refused (see Blockers)"
        elif wanted == tiers.CREDENTIAL:
            state = "the operator obtains it (see Next); jobledger holds none"
        elif wanted == tiers.ROLLBACK:
            signed = rollback is not None and rollback.evidence is Evidence.SIGNED
            state = f"met: signed at {rollback.where}" if signed and rollback else "missing"
        elif wanted == tiers.TRAIL:
            problem = request.trail_problem
            state = "met: the chain and head verify" if problem is None else f"broken: {problem}"
        else:
            state = "met"
        lines.append(one_line(f"  - {wanted}: {state}"))
    return lines


def _particulars(verdict: Verdict, shown: Shown | None) -> list[str]:
    """Idempotency (technical and business), the bounded retry and the reconciliation, each in
    one line: the facts the evidence below lists, read for what they mean to this request."""
    request = verdict.request
    guard = _fact(verdict, "dedupe_guard")
    guarded = guard is not None and guard.evidence is Evidence.SIGNED
    technical = _said(_fact(verdict, "idempotent"), shown)
    lines = [
        one_line(
            f"Idempotency: technical {technical}"
            + (
                f", guarded by dedupe_guard {_said(guard, shown)}"
                if guarded
                else ", no dedupe_guard"
            )
            + f"; business {_said(_fact(verdict, 'business_idempotent'), shown)}"
        )
    ]
    limit = _fact(verdict, "bulk_retry_limit")
    limit_text = (
        _said(limit, shown)
        if limit is not None and limit.value is not None
        else (limit.note.split("; ")[-1] if limit is not None and limit.note else "not read")
    )
    past = request.history
    ticket = "this ticket" if request.ticket else "no ticket"
    lines.append(
        one_line(
            f"Bounded retry: max_retries {_said(_fact(verdict, 'max_retries'), shown)}; "
            f"{request.count or 1} job(s) asked; bulk_retry_limit {limit_text}; "
            f"{past.approved} approved before on {ticket}"
        )
    )
    lines.append(
        one_line(
            f"Reconciliation: {_said(_fact(verdict, 'reconciliation'), shown)}; "
            f"{past.pending} approved batch(es) on {ticket} not yet reconciled"
        )
    )
    return lines


def _control_lines(verdict: Verdict) -> list[str]:
    """Every rule as a control: how many passed, and each one that found something."""
    results: dict[str, list[str]] = {}
    for control in verdict.controls:
        results.setdefault(control.result, []).append(control.rule)
    if not verdict.controls:
        return []
    summary = ", ".join(
        f"{len(results[result])} {result}"
        for result in ("passed", "blocked", "review", "not applicable")
        if result in results
    )
    lines = [f"Controls ({len(verdict.controls)} rules): {summary}"]
    for result in ("blocked", "review"):
        if result in results:
            lines.append(one_line(f"  {result}: {', '.join(results[result])}"))
    return lines
