"""The gate over the committed ledger: what ``jobledger list``, ``show`` and ``verdict`` read.

:func:`~pytest_jobledger.gate.readings.judge` judges the code as it is now. An operator in an
incident reads what was committed and reviewed: here the session's one reading (the committed
ledger's and the overlay's bytes are hashed, so an audit line names exactly what a decision read)
is joined by the gate's own pure join, with the same roster and day as the fresh gate, and the
fresh extraction says only whether the committed ledger is still what the code gives.
"""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass
from functools import cached_property

from ..core.errors import OverlayError
from ..findings import Finding, GateResult, JoinedJob
from ..ledger.diff import ledger_diff, stale_line
from ..ledger.model import Ledger
from ..overlay.model import Overlay
from ..project import Config
from .join import DUPLICATE_CELL, join
from .readings import Readings

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
    #: The day the join judged review dates by (a verdict grades a review's age with it).
    today: datetime.date | None = None

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


def committed_view(readings: Readings, config: Config) -> Snapshot:
    """The committed ledger joined with the overlay, the roster and the day of ``readings``: the
    same join, inputs and limits as the fresh gate, over the ledger that was committed."""
    fresh, committed = readings.fresh, readings.committed
    display = config.ledger_display
    stale: str | None = None
    if committed.unreadable is not None:
        stale = f"{display}: {committed.unreadable}"
    elif committed.text is not None and committed.ledger is None:
        stale = f"{display} cannot be read as a ledger: {committed.problem}"
    elif committed.text is not None and stale_line(committed.text, fresh.dumps()) is not None:
        stale = ledger_diff(committed.text, fresh)
    if committed.ledger is not None and committed.raw is not None:
        ledger, origin, ledger_bytes = committed.ledger, COMMITTED, committed.raw
    else:
        ledger, origin, ledger_bytes = fresh, FRESH, fresh.dumps().encode("utf-8", "surrogatepass")
    overlay, error = readings.overlay, readings.overlay_error
    result = join(
        ledger,
        overlay,
        config,
        unreadable_line=(error.line or 1) if error else 1,
        today=readings.today,
        roster=readings.roster,
    )
    return Snapshot(
        config=config,
        result=result,
        ledger=ledger,
        fresh=fresh,
        origin=origin,
        stale=stale,
        ledger_sha256=sha256(ledger_bytes),
        overlay=overlay,
        overlay_error=error,
        overlay_sha256=readings.overlay_sha256,
        today=readings.today,
    )


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
