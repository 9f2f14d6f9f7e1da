"""The gate's I/O shell: extract, read the overlay and the committed ledger, then join.

``jobledger check`` and ``pytest --jobledger`` both call :func:`evaluate`, so they report the same
checks. Two session-level status checks come first, so the run cannot pass when something outside
the per-cell items is wrong: the overlay parsed and matches its schema, and the committed ledger is
what a fresh extraction gives.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .config import Config
from .errors import OverlayError
from .extract import extract_ledger
from .findings import Finding, Kind
from .join import Check, checks, ledger_display_path, overlay_display_path
from .model import Ledger
from .overlay import Overlay, load_overlay

STATUS_JOB = "jobledger-status"
OVERLAY_STATUS = "overlay-valid"
LEDGER_STATUS = "ledger-fresh"

#: How many ids a stale-ledger message names per category before it says "and N more".
_NAMED = 5


@dataclass(frozen=True)
class GateResult:
    """Every check of one gate run, status checks first, in a stable order."""

    checks: tuple[Check, ...]

    @property
    def findings(self) -> list[Finding]:
        return [check.finding for check in self.checks if check.finding is not None]


def evaluate(config: Config, *, ledger: Ledger | None = None) -> GateResult:
    """Run the gate for ``config`` (``ledger`` replaces a fresh extraction, for tests)."""
    fresh = extract_ledger(config) if ledger is None else ledger
    display = overlay_display_path(config)
    overlay: Overlay | None
    try:
        overlay = load_overlay(config.overlay_path, display)
        error = None
    except OverlayError as exc:
        overlay, error = None, exc
    status = [
        overlay_status(error, display),
        ledger_status(_read_committed(config), fresh, config),
    ]
    return GateResult(tuple(status + checks(fresh, overlay, config)))


def overlay_status(error: OverlayError | None, display: str) -> Check:
    """The overlay parsed and matches the schema, or one located finding saying why not."""
    if error is None:
        return Check(STATUS_JOB, OVERLAY_STATUS, display, 1)
    line = error.line or 1
    finding = Finding(
        kind=Kind.OVERLAY_INVALID,
        job=STATUS_JOB,
        cell=OVERLAY_STATUS,
        path=display,
        line=line,
        message=(
            f"The overlay {display} cannot be used (line {line}): {error.message}. Until it reads "
            "cleanly no cell can be judged, so the per-cell items are skipped."
        ),
    )
    return Check.failed(finding)


def ledger_status(committed: str | None, fresh: Ledger, config: Config) -> Check:
    """The committed ledger (when there is one) is byte for byte what the code gives now."""
    display = ledger_display_path(config)
    expected = fresh.dumps()
    if committed is None or committed == expected:
        return Check(STATUS_JOB, LEDGER_STATUS, display, 1)
    line = _first_difference(committed, expected)
    finding = Finding(
        kind=Kind.LEDGER_STALE,
        job=STATUS_JOB,
        cell=LEDGER_STATUS,
        path=display,
        line=line,
        message=(
            f"The committed ledger {display} differs from a fresh extraction of the code (first "
            f"difference at line {line}): {ledger_diff(committed, fresh)}. The ledger is compiler "
            "output: run `jobledger extract` and commit the result; a value that is wrong is "
            "fixed in the code, never in the ledger."
        ),
    )
    return Check.failed(finding)


def ledger_diff(committed: str, fresh: Ledger) -> str:
    """A short summary of what changed between the committed and the fresh ledger, by job id."""
    try:
        data = json.loads(committed)
        old = Ledger.from_json(data)
    except (ValueError, KeyError, TypeError, AttributeError):
        return "the committed file is not a ledger jobledger can read (was it edited by hand?)"
    before, after = _rows_by_id(old), _rows_by_id(fresh)
    parts = []
    added = sorted(after.keys() - before.keys())
    removed = sorted(before.keys() - after.keys())
    changed = sorted(key for key in before.keys() & after.keys() if before[key] != after[key])
    for label, ids in (("added", added), ("removed", removed), ("changed", changed)):
        if ids:
            parts.append(f"{label} {_name_some(ids)}")
    old_unsupported = {json.dumps(item.to_json(), sort_keys=True) for item in old.unsupported}
    new_unsupported = {json.dumps(item.to_json(), sort_keys=True) for item in fresh.unsupported}
    if old_unsupported != new_unsupported:
        parts.append(
            f"unsupported patterns {len(old.unsupported)} -> {len(fresh.unsupported)}"
            if len(old.unsupported) != len(fresh.unsupported)
            else "unsupported patterns changed"
        )
    if isinstance(data, dict) and data.get("schema_version") != fresh.to_json()["schema_version"]:
        parts.append(f"schema_version {data.get('schema_version')!r}")
    if not parts:
        return "the same jobs, but the file's text differs (formatting or key order edited by hand)"
    return "; ".join(parts)


def _rows_by_id(ledger: Ledger) -> dict[str, list[dict[str, Any]]]:
    rows: dict[str, list[dict[str, Any]]] = {}
    for job in ledger.jobs:
        rows.setdefault(job.id, []).append(job.to_json())
    return rows


def _name_some(ids: Sequence[str]) -> str:
    named = ", ".join(ids[:_NAMED])
    more = len(ids) - _NAMED
    return f"{named} and {more} more" if more > 0 else named


def _first_difference(a: str, b: str) -> int:
    left, right = a.splitlines(), b.splitlines()
    for index, (x, y) in enumerate(zip(left, right, strict=False)):
        if x != y:
            return index + 1
    return min(len(left), len(right)) + 1


def _read_committed(config: Config) -> str | None:
    try:
        raw = config.ledger_path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"<unreadable: {exc.strerror}>"
    return raw.decode("utf-8", errors="replace")
