"""The gate's I/O shell: extract, read the overlay and the committed ledger, then join.

``jobledger check`` and ``pytest --jobledger`` both call :func:`evaluate`, so they report the same
checks: the status items first, then the join's.
"""

from __future__ import annotations

from ..config import Config
from ..errors import OverlayError
from ..extract import extract_ledger
from ..findings import GateResult
from ..ledger.model import Ledger
from ..ledger.store import committed_text
from ..overlay.model import Overlay
from ..overlay.reader import load_overlay
from .join import join
from .status import jobs_status, ledger_status, overlay_status


def evaluate(config: Config, *, ledger: Ledger | None = None) -> GateResult:
    """Run the gate for ``config`` (``ledger`` replaces a fresh extraction, for tests)."""
    fresh = extract_ledger(config) if ledger is None else ledger
    display = config.overlay_display
    overlay: Overlay | None
    try:
        overlay = load_overlay(
            config.overlay_path, display, root=config.root, max_bytes=config.max_overlay_bytes
        )
        error = None
    except OverlayError as exc:
        overlay, error = None, exc
    committed, unreadable = committed_text(config.ledger_path, config.root)
    status = (
        overlay_status(error, display),
        ledger_status(committed, fresh, config, unreadable=unreadable),
        jobs_status(fresh, config),
    )
    joined = join(fresh, overlay, config, unreadable_line=(error.line or 1) if error else 1)
    return GateResult(status + joined.checks, joined.jobs)
