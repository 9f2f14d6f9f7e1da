"""The trail's event kinds, each with a JSON Schema shipped in the package, checked before append.

``trail`` (a trail's first line: its identity), ``verdict`` (an answer of ``jobledger verdict``),
``plan`` (a plan written for an approver to sign), ``approval-check`` (a signed approval checked),
``reconciliation`` (``jobledger reconcile``), ``observation`` (``show`` or ``list`` read the
ledger, when ``audit_observations`` is on) and ``refusal`` (a verdict request refused before any
answer, an unknown job included). The schemas are
``pytest_jobledger/schemas/audit-<kind>.schema.json``, and each describes one line of the trail as
stored: the event's own keys plus the chain's ``time`` and ``prev`` (:data:`CHAIN_PROPERTIES`,
required, identical in every kind's schema), so an auditor validates a trail line by line with any
JSON Schema tool. A record is checked before it is appended as the line it will be (with stand-in
chain values the log then replaces); one that does not match is never appended (an
:class:`AuditError`, so the command gives no answer), whichever store holds the trail. The chain
itself (:mod:`.log`, :mod:`.store`)
stays format-agnostic: it can be verified without knowing what an event means.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from ..core.shapes import conforms
from . import anchor
from .chain import CHAIN_KEYS, GENESIS, AuditError
from .log import Line, Since
from .store import Store

#: Every event kind, in the order a request makes them.
KINDS: tuple[str, ...] = (
    "trail",
    "plan",
    "approval-check",
    "verdict",
    "reconciliation",
    # what was looked at and what was refused: the contract records every observation too
    "observation",
    "refusal",
)


#: The chain's keys as every kind's schema declares them (``tests/audit/test_line_schemas.py``
#: holds each packaged schema to exactly these).
CHAIN_PROPERTIES: dict[str, dict[str, str]] = {
    "time": {
        "type": "string",
        "pattern": r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?Z$",
        "description": "When the line was appended (UTC), written by the log itself.",
    },
    "prev": {
        "type": "string",
        "pattern": "^[0-9a-f]{64}$",
        "description": "The sha256 of the line before (64 zeros for the first line), written by "
        "the log itself: the chain.",
    },
}
#: What a record is checked with before the log writes its real ``time`` and ``prev``.
_STAND_IN = {"time": "1970-01-01T00:00:00.000Z", "prev": GENESIS}


def schema_resource(kind: str) -> str:
    return f"schemas/audit-{kind}.schema.json"


@cache
def schema(kind: str) -> dict[str, Any]:
    """The packaged schema of ``kind``."""
    text = resources.files("pytest_jobledger").joinpath(schema_resource(kind)).read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def problems(record: Mapping[str, Any]) -> list[str]:
    """Why ``record`` (an event the log has not chained yet) is not an event of its kind
    (empty: it is one)."""
    if set(record) & set(CHAIN_KEYS):
        return [f"the log writes {', '.join(CHAIN_KEYS)} itself"]
    return line_problems({**record, **_STAND_IN})


def line_problems(record: Mapping[str, Any]) -> list[str]:
    """Why ``record`` (one stored line of the trail, chain keys included) is not an event of
    its kind (empty: it is one). A record the quick check (:mod:`..core.shapes`) proves valid
    needs no validator; any other is judged, and worded, by jsonschema."""
    kind = record.get("event")
    if kind not in KINDS:
        return [f"its event kind {kind!r} is none of {', '.join(KINDS)}"]
    if conforms(schema(str(kind)), dict(record)) is True:
        return []
    import jsonschema  # only when an event is not proved valid above

    validator = jsonschema.Draft202012Validator(schema(str(kind)))
    found = sorted(validator.iter_errors(dict(record)), key=lambda error: list(error.path))
    return [
        ("/".join(str(part) for part in error.path) or "the record") + f": {error.message}"
        for error in found
    ]


def append_event(store: Store, record: Mapping[str, Any], *, expect: Since | None = None) -> Line:
    """Check ``record`` against its kind's schema, then append it to ``store`` (any backend);
    with ``expect``, only when what was appended since does not change the decision."""
    found = problems(record)
    if found:
        raise AuditError(
            f"the {record.get('event', '?')} event does not match its schema "
            f"({schema_resource(str(record.get('event')))}): {found[0]}; nothing was appended",
            path=store.display,
        )
    line = store.append(record, expect=expect)
    anchor.remember(store, line)  # the head, kept outside the work tree as well
    return line
