"""The gate over the committed ledger: what ``jobledger list``, ``show`` and ``verdict`` read.

:func:`~pytest_jobledger.gate.shell.evaluate` judges the code as it is now. An operator in an
incident reads what was committed and reviewed: here the committed ledger and the overlay are each
read once (their bytes are hashed, so an audit line names exactly what a decision read), joined by
the gate's own pure join, and a fresh extraction says only whether the committed ledger is still
what the code gives.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property

from ..config import Config
from ..errors import OverlayError
from ..extract import extract_ledger
from ..findings import Finding, GateResult, JoinedJob
from ..ledger.diff import ledger_diff
from ..ledger.model import Ledger
from ..ledger.store import committed_bytes, parse_ledger
from ..overlay.model import Overlay
from ..overlay.reader import parse_overlay, read_overlay_bytes
from .join import DUPLICATE_CELL, join

COMMITTED = "committed"
FRESH = "fresh"


@dataclass(frozen=True)
class Snapshot:
    """The committed ledger joined with the overlay, as read once.

    ``ledger`` is what the facts come from: the committed file, or a fresh extraction when there is
    no readable one (``origin`` says which). ``stale`` says briefly how the committed ledger
    differs from the code (``None``: it does not, or there is none). Each sha256 is of the exact
    bytes read (for a fresh ledger, of its text); ``overlay_sha256`` is ``None`` without a file.
    """

    config: Config
    result: GateResult
    ledger: Ledger
    fresh: Ledger
    origin: str
    stale: str | None
    ledger_sha256: str
    overlay: Overlay | None
    overlay_error: OverlayError | None
    overlay_sha256: str | None

    def joined(self, job_id: str) -> JoinedJob | None:
        return self._rows.get(job_id)

    def duplicate(self, job_id: str) -> Finding | None:
        """The duplicate-id finding of ``job_id`` (one overlay entry cannot sign for two jobs)."""
        return self._duplicates.get(job_id)

    @cached_property
    def _rows(self) -> dict[str, JoinedJob]:
        return {row.job.id: row for row in self.result.jobs}

    @cached_property
    def _duplicates(self) -> dict[str, Finding]:
        found = (finding for finding in self.result.findings if finding.cell == DUPLICATE_CELL)
        return {finding.job: finding for finding in found}

    @property
    def ids(self) -> list[str]:
        return [row.job.id for row in self.result.jobs]

    @property
    def fresh_ids(self) -> frozenset[str]:
        """The ids the code registers now (to say why an id is not in a stale ledger)."""
        return frozenset(job.id for job in self.fresh.jobs)


def read_snapshot(config: Config, *, fresh: Ledger | None = None) -> Snapshot:
    """Read the committed ledger and the overlay once, and join them (``fresh`` replaces the
    extraction, for tests)."""
    fresh = extract_ledger(config) if fresh is None else fresh
    raw, unreadable = committed_bytes(config.ledger_path, config.root)
    text = raw.decode("utf-8", errors="replace") if raw is not None else None
    committed, why = parse_ledger(text) if text is not None else (None, None)
    display = config.ledger_display
    stale: str | None = None
    if unreadable is not None:
        stale = f"{display}: {unreadable}"
    elif text is not None and committed is None:
        stale = f"{display} cannot be read as a ledger: {why}"
    elif text is not None and text != fresh.dumps():
        stale = ledger_diff(text, fresh)
    if committed is not None and raw is not None:
        ledger, origin, ledger_bytes = committed, COMMITTED, raw
    else:
        ledger, origin, ledger_bytes = fresh, FRESH, fresh.dumps().encode("utf-8")
    overlay: Overlay | None
    overlay_sha256: str | None = None
    error: OverlayError | None = None
    try:
        overlay_raw = read_overlay_bytes(
            config.overlay_path, config.overlay_display, root=config.root
        )
        if overlay_raw is None:
            overlay = Overlay(path=config.overlay_display, exists=False)
        else:
            overlay_sha256 = sha256(overlay_raw)
            overlay = parse_overlay(overlay_raw, config.overlay_display)
    except OverlayError as exc:
        overlay, error = None, exc
    return Snapshot(
        config=config,
        result=join(ledger, overlay, config),
        ledger=ledger,
        fresh=fresh,
        origin=origin,
        stale=stale,
        ledger_sha256=sha256(ledger_bytes),
        overlay=overlay,
        overlay_error=error,
        overlay_sha256=overlay_sha256,
    )


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
