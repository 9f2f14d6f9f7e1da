"""The verdict's records: the request, each fact with its evidence label, each reason, the answer.

Plain frozen values, so the rules, the text card, ``--json`` and the audit line read the same
thing. A fact is labelled by where it comes from, never by how much we would like to trust it: a
signed cell is a person's claim, not a proof, and an ``--approved-by`` is only what the operator
typed. Each fact also carries its :class:`Quality`: the label says where a fact comes from, the
quality how good that evidence is (what bytes it was read at, how old, how whole, who stands
behind it, at what stage of control).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..ledger.model import JSONValue

if TYPE_CHECKING:
    from .approval import ApprovalCheck
    from .tiers import Tier


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
    SUSPECT = "suspect"
    """An overlay cell whose text reads as an instruction to the tool or an operator
    (:mod:`.directives`): shown to a person, never counted as signed, never obeyed."""


@dataclass(frozen=True)
class Quality:
    """A fact's evidence graded six ways, each a short value a person can read
    (:mod:`.quality` writes them from what the session read).

    ``source``: ledger / overlay / roster / trail / request; ``integrity``: the sha256 the value
    was read at (short form), or why there is none; ``freshness``: fresh / stale against the
    source, or a signed review's age; ``completeness``: complete, or partial / missing and why;
    ``independence``: source code / signed by a person / self-reported; ``stage``: the control
    that produced it (static extraction / human signature / runtime request).
    """

    source: str
    integrity: str
    freshness: str
    completeness: str
    independence: str
    stage: str

    def to_json(self) -> dict[str, str]:
        return {
            "source": self.source,
            "integrity": self.integrity,
            "freshness": self.freshness,
            "completeness": self.completeness,
            "independence": self.independence,
            "stage": self.stage,
        }


#: A fact made without a grade gets the one its label implies (:func:`graded_by_label`).
UNGRADED = Quality("", "", "", "", "", "")


def graded_by_label(evidence: Evidence, note: str) -> Quality:
    """What the label alone says of a fact nobody graded (a request's, or a new rule's own): no
    digest and no file it cannot know; a fact read from a file should pass its own grade."""
    if evidence is Evidence.SELF_REPORTED:
        return Quality(
            "request", "none: as typed", "now", "complete", "self-reported", "runtime request"
        )
    if evidence is Evidence.SOURCE:
        return Quality(
            "ledger", "not recorded", "not recorded", "complete", "source code", "static extraction"
        )
    if evidence is Evidence.SIGNED:  # an overlay cell is graded by .facts: this is another
        return Quality(
            "not recorded",
            "not recorded",
            "undated",
            "complete",
            "signed by a person",
            "human signature",
        )
    if evidence is Evidence.SUSPECT:
        return Quality(
            "not recorded",
            "not recorded",
            "undated",
            "unusable: reads as an instruction",
            "signed by a person",
            "human signature",
        )
    return Quality("none", "none", "n/a", f"missing: {note or 'not given'}", "none", "none")


@dataclass(frozen=True)
class Fact:
    """One thing the verdict knows, the label of where it comes from, and where exactly.

    ``value`` is ``None`` when the fact is missing; ``note`` says why, or what qualifies it;
    ``quality`` grades it (one its label implies when none is given, so every fact has one).
    """

    name: str
    value: JSONValue
    evidence: Evidence
    where: str | None = None
    note: str = ""
    quality: Quality = UNGRADED

    def __post_init__(self) -> None:
        if self.quality is UNGRADED:
            object.__setattr__(self, "quality", graded_by_label(self.evidence, self.note))

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "value": self.value,
            "evidence": self.evidence.value,
            "where": self.where,
            "note": self.note,
            "quality": self.quality.to_json(),
        }


@dataclass(frozen=True)
class History:
    """What the trail says about one job and ticket before this request.

    ``approved``: the jobs approved so far (a count, or 1 a verdict); ``pending``: approved
    batches since the last reconciliation; ``mismatch_line``: the line of a reconciliation that
    found a mismatch and is the last one; ``plan_lines``: the trail line of each plan's event;
    ``used``: plan digests an approved verdict already used (any job)."""

    approved: int = 0
    batches: int = 0
    pending: int = 0
    pending_line: int | None = None
    mismatch_line: int | None = None
    plan_lines: Mapping[str, int] = field(default_factory=dict)
    used: frozenset[str] = frozenset()


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
    #: Why the trail cannot be trusted (its chain or head broken); ``None``: read and intact.
    trail_problem: str | None = None


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
class Control:
    """One rule as a control: ``passed``, ``blocked``, ``review`` (it found something), or
    ``not applicable`` (it does not apply to the action)."""

    rule: str
    result: str


@dataclass(frozen=True)
class Verdict:
    """The answer, every reason behind it (all of them, not the first), the evidence, and what
    the operator does next; the risk tier and what it required, every control's result, the
    credential scope (R3 and above) and the questions only a person can answer."""

    answer: Answer
    request: Request
    blockers: tuple[Reason, ...]
    review: tuple[Reason, ...]
    facts: tuple[Fact, ...]
    next_actions: tuple[str, ...]
    tier: Tier | None = None
    controls: tuple[Control, ...] = ()
    credentials: dict[str, Any] | None = None
    open_questions: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        request = self.request
        return {
            "verdict": self.answer.value,
            "job": request.job,
            "action": request.action.value,
            "count": request.count,
            "tier": self.tier.to_json() if self.tier is not None else None,
            "blockers": [reason.to_json() for reason in self.blockers],
            "review": [reason.to_json() for reason in self.review],
            "facts": [fact.to_json() for fact in self.facts],
            "controls": [{"rule": c.rule, "result": c.result} for c in self.controls],
            "credentials": self.credentials,
            "next": list(self.next_actions),
            "open_questions": list(self.open_questions),
        }
