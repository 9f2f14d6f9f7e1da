"""Which trail this is: an identity every store has, so a plan can name the one trail it is for.

The identity is the ``trail_id`` of a ``trail`` event when the trail begins with one (``audit
init`` writes it, and so does ``verdict --plan`` on an empty trail), else the sha256 of the
trail's first line (a trail begun before identities existed). Either way it is fixed by the first
line: a second trail (another environment, another operator's file) has another first line, so
another identity, and a signed plan is refused there. The head is the sha256 of the last
committed line, what a plan records as the trail it was made in.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from .chain import GENESIS
from .log import Line
from .store import Store

#: The event kind that opens a trail with its identity.
TRAIL_EVENT = "trail"
RECORD_FORMAT = 1


def identity_of(lines: Sequence[Line]) -> str | None:
    """The trail's identity from its lines, ``None`` for a trail with no committed line."""
    committed = [line for line in lines if line.committed]
    if not committed:
        return None
    first = committed[0]
    record = first.record or {}
    trail_id = record.get("trail_id")
    if record.get("event") == TRAIL_EVENT and isinstance(trail_id, str):
        return trail_id
    return first.sha256


def head_of(lines: Sequence[Line]) -> str:
    """The sha256 of the last committed line (the genesis value for an empty trail)."""
    committed = [line for line in lines if line.committed]
    return committed[-1].sha256 if committed else GENESIS


def identify(store: Store, *, by: str) -> tuple[str, bool]:
    """The store's identity, opening an empty trail with a ``trail`` event first (``by`` names
    the command that did). Returns the identity and whether this call wrote it."""
    found = identity_of(store.lines())
    if found is not None:
        return found, False
    record = {
        "format": RECORD_FORMAT,
        "event": TRAIL_EVENT,
        "trail_id": secrets.token_hex(16),
        "opened_by": by,
    }
    from .events import append_event  # events anchors each append, and the anchor names trails

    line = append_event(store, record)
    found = identity_of(store.lines())
    if found is None:  # pragma: no cover - the append above committed a line
        return str(record["trail_id"]), line.number == 1
    return found, found == record["trail_id"]
