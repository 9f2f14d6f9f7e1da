"""What was looked at, and what was refused, in the trail: the contract records every observation.

- :func:`observed`: ``show`` and ``list`` append an ``observation`` event (which command, who,
  which job or filters, how many jobs were shown, the sha256 of what was read) before they print,
  when ``[tool.jobledger] audit_observations = true``. Off by default. When it is on and the event
  cannot be written, nothing is shown (exit 2), as a verdict would not be.
- :func:`refused`: a ``jobledger verdict`` request refused before any answer (an unknown job, a
  wrong bound, contradicting options, an approval that cannot be checked) appends a ``refusal``
  event with the reason, minimised; when the trail itself is what failed, the refusal stands
  without one (there is nowhere to write it) and the original error is what the operator sees.
"""

from __future__ import annotations

import argparse
from typing import Any

from .. import __version__
from ..core.errors import JobledgerError
from ..core.redact import redact
from ..core.text import clip
from ..gate.committed import Snapshot
from ..project import Config

#: The most of a refusal's reason the trail keeps (its schema's limit).
REASON_CHARS = 2048


def _who(args: argparse.Namespace) -> tuple[str, str]:
    from .verdict import _os_user  # the one place the OS user is read

    actor = getattr(args, "actor", None)
    if isinstance(actor, str) and actor.strip():
        return actor.strip(), "--actor"
    return _os_user(), "the OS user"


def observed(
    config: Config,
    snapshot: Snapshot,
    args: argparse.Namespace,
    *,
    command: str,
    job: str | None,
    filters: dict[str, Any],
    shown: int,
) -> None:
    """Append the observation before anything is printed (only with ``audit_observations``)."""
    if not config.verdict.audit_observations:
        return
    from .. import audit  # only with audit_observations: `list` and `show` start without it
    from .verdict import open_trail  # the verdict's refusal when the trail cannot be opened

    actor, actor_from = _who(args)
    store = open_trail(config)
    record = {
        "format": 1,
        "event": "observation",
        "command": command,
        "actor": actor,
        "actor_from": actor_from,
        "job": job,
        "filters": filters,
        "jobs_shown": shown,
        "ledger_sha256": snapshot.ledger_sha256,
        "overlay_sha256": snapshot.overlay_sha256,
        "version": __version__,
    }
    try:
        audit.append_event(store, record)
    except audit.AuditError as exc:
        raise audit.AuditError(
            f"{exc.message}. Nothing was shown: [tool.jobledger] audit_observations is on, and "
            "an observation without a trail is refused",
            path=exc.path or store.display,
        ) from exc


def refused(
    config: Config, args: argparse.Namespace, error: JobledgerError, *, known: bool
) -> None:
    """Append a ``refusal`` for a verdict request the tool would not answer; a trail that cannot
    take it leaves the refusal as it was (the operator sees the first error, not this one)."""
    actor, actor_from = _who(args)
    count = args.count if isinstance(args.count, int) else None
    ticket = args.ticket.strip() if isinstance(args.ticket, str) and args.ticket.strip() else None
    record = {
        "format": 1,
        "event": "refusal",
        "command": "verdict",
        "actor": actor,
        "actor_from": actor_from,
        "job": args.job or "?",
        "known_job": known,
        "action": args.action,
        "count": count,
        "ticket": ticket,
        "reason": clip(redact(str(error), "the refusal"), REASON_CHARS),
        "version": __version__,
    }
    from .. import audit

    try:
        store = audit.open_store(config.verdict.audit_log, root=config.root)
        audit.append_event(store, record)
    except audit.AuditError:
        return
