"""The verdict: may an operator retry, requeue or replay a job? Approved, blocked or needs-review.

It reads the gate's joined rows (the committed ledger with the signed overlay) and decides:

- ``model``: the request, each fact with its evidence label, each reason, the verdict;
- ``facts``: one joined row -> labelled facts (pure);
- ``rules``: the rules as one table (:data:`~.rules.RULES`);
- ``tiers``: each action's risk tier, a signed ``risk_tier`` that raises it, what a tier needs;
- ``decide``: facts + request -> the verdict (pure);
- ``quality``: how good each piece of evidence is; ``directives``: text that reads as an order
  (a possible injected instruction);
- ``plan`` (what an approver signs), ``approval`` (a signed approval checked), ``approvers`` (who
  may approve, read at the base) and ``sshkeygen`` (the one place ssh-keygen is started).

It never says a job *is* idempotent, only that someone signed that it is, and it never claims an
approval it could not verify. Recording the verdict is the ``audit`` room's work; printing it is
the command line's.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .decide import decide
    from .facts import JobFacts, from_snapshot
    from .model import Action, Answer, Evidence, Fact, Reason, Request, Verdict
    from .rules import RULES

#: Where each name lives, imported on first use: ``list`` and ``show`` read the facts alone,
#: not the rules, the tiers or the decision.
_HOMES = {
    "decide": "decide",
    "JobFacts": "facts",
    "from_snapshot": "facts",
    **dict.fromkeys(
        ("Action", "Answer", "Evidence", "Fact", "Reason", "Request", "Verdict"), "model"
    ),
    "RULES": "rules",
}

__all__ = [
    "RULES",
    "Action",
    "Answer",
    "Evidence",
    "Fact",
    "JobFacts",
    "Reason",
    "Request",
    "Verdict",
    "decide",
    "from_snapshot",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    # Bound here for good: importing the module ``decide`` bound its name to the module.
    globals()[name] = value
    return value
