"""The trail's event kinds, each with a JSON Schema shipped in the package, checked before append.

``verdict`` (an answer of ``jobledger verdict``), ``plan`` (a plan written for an approver to
sign), ``approval-check`` (a signed approval checked), ``reconciliation`` (``jobledger
reconcile``), ``observation`` (``show`` or ``list`` read the ledger, when ``audit_observations``
is on) and ``refusal`` (a verdict request refused before any answer, an unknown job
included). The schemas are ``pytest_jobledger/schemas/audit-<kind>.schema.json``; a record
that does not match its kind's schema is never appended (an :class:`AuditError`, so the command
gives no answer), whichever store holds the trail. The chain itself (:mod:`.log`, :mod:`.store`)
stays format-agnostic: it can be verified without knowing what an event means.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from .chain import AuditError
from .log import Line, Since
from .store import Store

#: Every event kind, in the order a request makes them.
KINDS: tuple[str, ...] = (
    "plan",
    "approval-check",
    "verdict",
    "reconciliation",
    # what was looked at and what was refused: the contract records every observation too
    "observation",
    "refusal",
)


def schema_resource(kind: str) -> str:
    return f"schemas/audit-{kind}.schema.json"


@cache
def schema(kind: str) -> dict[str, Any]:
    """The packaged schema of ``kind``."""
    text = resources.files("pytest_jobledger").joinpath(schema_resource(kind)).read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def problems(record: Mapping[str, Any]) -> list[str]:
    """Why ``record`` is not an event of its kind (empty: it is one)."""
    import jsonschema  # only when an event is written

    kind = record.get("event")
    if kind not in KINDS:
        return [f"its event kind {kind!r} is none of {', '.join(KINDS)}"]
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
    return store.append(record, expect=expect)
