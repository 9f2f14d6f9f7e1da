"""The verdict's records: the request, each fact with its evidence label, each reason, the answer.

Plain frozen values, so the rules, the text card, ``--json`` and the audit line read the same
thing. A fact is labelled by where it comes from, never by how much we would like to trust it: a
signed cell is a person's claim, not a proof, and an ``--approved-by`` is only what the operator
typed.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from ..ledger.model import JSONValue
from .approval import ApprovalCheck, History


class Answer(str, enum.Enum):
    """What the operator may do; the value is the stable name in JSON and the audit log."""

    APPROVED = "approved"
    BLOCKED = "blocked"
    NEEDS_REVIEW = "needs-review"


class Action(str, enum.Enum):
    """What the operator wants to do to the job's failed (or finished) runs."""

    RETRY = "retry"
    REQUEUE = "requeue"
    REPLAY = "replay"
    BULK_RETRY = "bulk-retry"


class Evidence(str, enum.Enum):
    """Where a fact comes from."""

    SOURCE = "source"
    """The ledger row: read from the code (``path:line`` of the registration)."""
    SIGNED = "signed"
    """An overlay cell (``path:line``): a person's claim, not a proof."""
    SELF_REPORTED = "self-reported"
    """Given on the command line (``--approved-by``, ``--actor``): nobody checked it."""
    MISSING = "missing"
    """Nowhere: not in the code, not signed, or not usable as written (``note`` says why)."""


@dataclass(frozen=True)
class Fact:
    """One thing the verdict knows, the label of where it comes from, and where exactly.

    ``value`` is ``None`` when the fact is missing; ``note`` says why, or what qualifies it.
    """

    name: str
    value: JSONValue
    evidence: Evidence
    where: str | None = None
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "value": self.value,
            "evidence": self.evidence.value,
            "where": self.where,
            "note": self.note,
        }


@dataclass(frozen=True)
class Request:
    """What the operator asked for. Everything here is self-reported."""

    job: str
    action: Action
    count: int | None = None
    approved_by: str | None = None
    ticket: str | None = None
    actor: str = ""
    actor_from: str = "--actor"
    #: The signed approval (``--approval``), checked; ``None``: none was given.
    approval: ApprovalCheck | None = None
    #: What the trail says about this job and ticket before this request.
    history: History = field(default_factory=History)


@dataclass(frozen=True)
class Reason:
    """One blocker or review item: the rule that found it, what it is about, and what to do.

    ``name`` (``rule`` or ``rule:subject``) is the stable name a script or the audit log uses.
    """

    rule: str
    answer: Answer
    message: str
    fix: str
    subject: str = ""

    @property
    def name(self) -> str:
        return f"{self.rule}:{self.subject}" if self.subject else self.rule

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "rule": self.rule,
            "subject": self.subject,
            "message": self.message,
            "fix": self.fix,
        }


@dataclass(frozen=True)
class Verdict:
    """The answer, every reason behind it (all of them, not the first), the evidence, and what
    the operator does next."""

    answer: Answer
    request: Request
    blockers: tuple[Reason, ...]
    review: tuple[Reason, ...]
    facts: tuple[Fact, ...]
    next_actions: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        request = self.request
        return {
            "verdict": self.answer.value,
            "job": request.job,
            "action": request.action.value,
            "count": request.count,
            "blockers": [reason.to_json() for reason in self.blockers],
            "review": [reason.to_json() for reason in self.review],
            "facts": [fact.to_json() for fact in self.facts],
            "next": list(self.next_actions),
        }
