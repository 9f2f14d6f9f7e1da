"""The gate's session-level status items: the overlay is usable, the ledger is fresh, the owners
roster is usable (when configured); :mod:`.review` adds the base's.

They come first, so a run cannot pass when something outside the per-cell items is wrong.
"""

from __future__ import annotations

from ..config import Config
from ..errors import OverlayError
from ..findings import STATUS_JOB, Check, Finding, Kind
from ..ledger.diff import first_difference, ledger_diff
from ..ledger.model import Ledger

__all__ = ["LEDGER_STATUS", "OVERLAY_STATUS", "STATUS_JOB", "ledger_status", "overlay_status"]

OVERLAY_STATUS = "overlay-valid"
LEDGER_STATUS = "ledger-fresh"
OWNERS_STATUS = "owners-valid"


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


def ledger_status(
    committed: str | None, fresh: Ledger, config: Config, *, unreadable: str | None = None
) -> Check:
    """The committed ledger (when there is one) is byte for byte what the code gives now.

    ``unreadable`` says why the committed file could not be read at all.
    """
    display = config.ledger_display
    if unreadable is not None:
        return Check.failed(
            Finding(
                kind=Kind.LEDGER_STALE,
                job=STATUS_JOB,
                cell=LEDGER_STATUS,
                path=display,
                line=1,
                message=(
                    f"The committed ledger {display} cannot be read: {unreadable}. Replace it "
                    "with a regular file: run `jobledger extract` and commit the result."
                ),
            )
        )
    expected = fresh.dumps()
    if committed is None or committed == expected:
        return Check(STATUS_JOB, LEDGER_STATUS, display, 1)
    line = first_difference(committed, expected)
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


def owners_status(error: OverlayError | None, display: str) -> Check:
    """The owners roster reads as a list or mapping of names, or one located finding."""
    if error is None:
        return Check(STATUS_JOB, OWNERS_STATUS, display, 1)
    line = error.line or 1
    finding = Finding(
        kind=Kind.OWNERS_INVALID,
        job=STATUS_JOB,
        cell=OWNERS_STATUS,
        path=display,
        line=line,
        message=(
            f"The owners roster {display} cannot be used (line {line}): {error.message}. Until "
            "it reads cleanly no paging owner is checked against it."
        ),
    )
    return Check.failed(finding)
