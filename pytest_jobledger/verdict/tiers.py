"""Risk tiers as data: which tier each action is, how a job's own signed ``risk_tier`` raises it,
and what each tier requires before the verdict may approve.

The tier decides how much authority an action needs, never the opposite: a job's signed
``risk_tier`` can put every action on it higher than the action's own tier, and a lower one is
ignored (named on the card, so a person sees the owner asked for less). What each tier requires:

- **R2** on a job signed idempotent "yes" *and* business_idempotent "yes" (a retry that is
  provably harmless, as far as signatures can say): nothing more;
- **R2** otherwise, and every **R3** and above: a signed plan by a member of the job's
  ``paging_owner`` rotation (``--plan``, ``--approval``);
- **R3** and above: a credential scoped to this job, queue, ticket and count, issued just in time
  by whoever issues credentials (this tool never holds, asks for or prints one);
- **R4** and above: a signed ``rollback`` cell too, and an intact audit trail (fails closed).

Pure: the facts and the action in, a :class:`Tier` out.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from ..core.text import plural
from .facts import JobFacts
from .model import Action, Request


class Level(str, enum.Enum):
    """A risk tier; the value is its stable name (JSON, the trail, the ``risk_tier`` cell)."""

    R2 = "R2"
    R3 = "R3"
    R4 = "R4"
    R5 = "R5"

    @property
    def rank(self) -> int:
        return int(self.value[1:])


#: Each action's own tier: a rerun of one failed job is the lowest; a requeue or replay reruns
#: work that may have finished; a bulk retry repeats a business effect many times over.
ACTION_TIERS: dict[Action, Level] = {
    Action.RETRY: Level.R2,
    Action.REQUEUE: Level.R3,
    Action.REPLAY: Level.R3,
    Action.BULK_RETRY: Level.R4,
}

#: What each requirement is called on the card and in ``--json``.
PLAN = "a signed plan by a member of the job's paging_owner rotation"
CREDENTIAL = "a credential scoped to this job, queue, ticket and count, issued just in time"
ROLLBACK = "a signed `rollback` cell (how the business effect is undone)"
TRAIL = "an intact audit trail (fails closed without one)"
NOTHING = "nothing more: idempotent and business_idempotent are both signed yes"


@dataclass(frozen=True)
class Tier:
    """The tier of one request: the action's own, the job's signed one (``None``: not signed),
    where that is signed, and the tier that applies (the higher of the two)."""

    level: Level
    action_level: Level
    signed: Level | None = None
    signed_where: str | None = None
    harmless: bool = False

    @property
    def needs_plan(self) -> bool:
        return self.level.rank >= 3 or not self.harmless

    @property
    def needs_credential(self) -> bool:
        return self.level.rank >= 3

    @property
    def needs_rollback(self) -> bool:
        return self.level.rank >= 4

    @property
    def needs_trail(self) -> bool:
        return self.level.rank >= 4

    def requires(self) -> tuple[str, ...]:
        """What this tier requires, in the order the card lists them."""
        if not self.needs_plan:
            return (NOTHING,)
        wanted = [PLAN]
        if self.needs_credential:
            wanted.append(CREDENTIAL)
        if self.needs_rollback:
            wanted.extend((ROLLBACK, TRAIL))
        return tuple(wanted)

    def why(self) -> str:
        """Where the tier comes from, in one phrase."""
        own = f"{self.action_level.value} for the action"
        if self.signed is None:
            return own
        where = f" at {self.signed_where}" if self.signed_where else ""
        if self.signed.rank > self.action_level.rank:
            return f"{own}, raised by the job's signed risk_tier {self.signed.value}{where}"
        if self.signed.rank < self.action_level.rank:
            return f"{own}; the job's signed risk_tier {self.signed.value}{where} cannot lower it"
        return f"{own}, as the job's signed risk_tier{where}"

    def to_json(self) -> dict[str, Any]:
        return {
            "tier": self.level.value,
            "action_tier": self.action_level.value,
            "signed_tier": self.signed.value if self.signed is not None else None,
            "signed_where": self.signed_where,
            "harmless": self.harmless,
            "requires": list(self.requires()),
        }


def tier_of(facts: JobFacts, action: Action) -> Tier:
    """The action's tier, raised (never lowered) by a signed ``risk_tier``."""
    own = ACTION_TIERS[action]
    signed_text = facts.signed("risk_tier")
    signed = Level(signed_text) if signed_text in {level.value for level in Level} else None
    level = signed if signed is not None and signed.rank > own.rank else own
    harmless = facts.signed("idempotent") == "yes" and facts.signed("business_idempotent") == "yes"
    return Tier(
        level=level,
        action_level=own,
        signed=signed,
        signed_where=facts.cell("risk_tier").where if signed is not None else None,
        harmless=harmless,
    )


def credential_scope(facts: JobFacts, request: Request) -> dict[str, Any]:
    """The scope an operator's credential needs for ``request`` (R3 and above): this job, this
    queue, this ticket, this count; issued just in time. Names only, never a credential."""
    return {
        "job": request.job,
        "queue": facts.job.queue,
        "ticket": request.ticket,
        "count": request.count if request.count is not None else 1,
        "issued": "just in time, for this action only, and revoked after it",
        "held_by_jobledger": False,
    }


def credential_step(facts: JobFacts, request: Request) -> str:
    """The next step that names the scope (the tool never holds, asks for or prints one)."""
    scope = credential_scope(facts, request)
    queue = f"queue {scope['queue']}" if scope["queue"] else "the job's queue (not in the ledger)"
    ticket = f"ticket {scope['ticket']}" if scope["ticket"] else "a ticket (none was given)"
    jobs = plural(scope["count"], "job")
    return (
        f"get a credential scoped to this job ({request.job}), {queue}, {ticket} and {jobs}, "
        "issued just in time for this action and revoked after it; jobledger never holds, asks "
        "for or prints a credential"
    )
