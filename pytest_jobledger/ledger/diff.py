"""What changed between the committed ledger's text and a fresh extraction, in a few words."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .model import SCHEMA_VERSION, Ledger
from .store import parse_ledger

#: How many ids a summary names per category before it says "and N more".
NAMED = 5


def ledger_diff(committed: str, fresh: Ledger) -> str:
    """A short summary of what changed between the committed and the fresh ledger, by job id."""
    old, problem = parse_ledger(committed)
    if old is None:
        return f"the committed file cannot be compared: {problem}"
    data = json.loads(committed)
    before, after = _rows_by_id(old), _rows_by_id(fresh)
    parts = []
    added = sorted(after.keys() - before.keys())
    removed = sorted(before.keys() - after.keys())
    changed = sorted(key for key in before.keys() & after.keys() if before[key] != after[key])
    for label, ids in (("added", added), ("removed", removed), ("changed", changed)):
        if ids:
            parts.append(f"{label} {name_some(ids)}")
    old_unsupported = {json.dumps(item.to_json(), sort_keys=True) for item in old.unsupported}
    new_unsupported = {json.dumps(item.to_json(), sort_keys=True) for item in fresh.unsupported}
    if old_unsupported != new_unsupported:
        parts.append(
            f"unsupported patterns {len(old.unsupported)} -> {len(fresh.unsupported)}"
            if len(old.unsupported) != len(fresh.unsupported)
            else "unsupported patterns changed"
        )
    if isinstance(data, dict) and data.get("schema_version") != SCHEMA_VERSION:
        parts.append(f"schema_version {data.get('schema_version')!r}")
    if not parts:
        return "the same jobs, but the file's text differs (formatting or key order edited by hand)"
    return "; ".join(parts)


def first_difference(a: str, b: str) -> int:
    """The 1-based number of the first line where ``a`` and ``b`` differ."""
    left, right = a.splitlines(), b.splitlines()
    for index, (x, y) in enumerate(zip(left, right, strict=False)):
        if x != y:
            return index + 1
    return min(len(left), len(right)) + 1


def name_some(ids: Sequence[str], limit: int = NAMED) -> str:
    """``a, b, c and 4 more``: the first ``limit`` ids, then how many are left out."""
    named = ", ".join(ids[:limit])
    more = len(ids) - limit
    return f"{named} and {more} more" if more > 0 else named


def _rows_by_id(ledger: Ledger) -> dict[str, list[dict[str, Any]]]:
    rows: dict[str, list[dict[str, Any]]] = {}
    for job in ledger.jobs:
        rows.setdefault(job.id, []).append(job.to_json())
    return rows
