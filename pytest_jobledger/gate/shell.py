"""The gate's I/O shell: extract, read the overlay, the committed ledger, the roster and the base,
then join.

``jobledger check`` and ``pytest --jobledger`` both call :func:`evaluate`, so they report the same
checks: the status items first, then the join's.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib

from .. import git
from ..baseline import apply_baseline, held_by_base, read_baseline
from ..config import Config
from ..errors import OverlayError
from ..extract import extract_ledger
from ..findings import Check, GateResult, Inputs
from ..ledger.model import Ledger
from ..ledger.store import committed_text
from ..overlay.model import Overlay
from ..overlay.reader import load_overlay
from ..overlay.roster import Roster, load_roster
from .changes import build_report
from .join import join
from .review import Base, base_status, read_base, review_checks
from .status import jobs_status, ledger_status, overlay_status, owners_status


def evaluate(
    config: Config,
    *,
    ledger: Ledger | None = None,
    base: str | None = None,
    today: datetime.date | None = None,
    baseline: bool = True,
) -> GateResult:
    """Run the gate for ``config`` (``ledger`` replaces a fresh extraction, for tests).

    ``base`` is the git ref whose committed ledger and overlay review-after-change compares
    with; ``today`` dates reviews (the machine's date when not given). With ``baseline`` (the
    default) the configured baseline file is applied, here and only here, so every presenter
    sees its known failures as notices; ``jobledger baseline`` reads the gate without it.
    """
    # Read first: a corrupt baseline is a located error (exit 2) before any work is done.
    known = read_baseline(config) if baseline else None
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
    status = [
        overlay_status(error, display),
        ledger_status(committed, fresh, config, unreadable=unreadable),
        jobs_status(fresh, config),
    ]
    roster = _roster(config, status)
    extra: list[Check] = []
    changes = None
    if base is not None:
        found, reason = _base(config, base)
        status.append(base_status(config, base, found, reason))
        if found is not None and overlay is not None:
            extra = review_checks(found, fresh, overlay, config)
            changes = build_report(found, fresh, overlay)
    joined = join(
        fresh,
        overlay,
        config,
        unreadable_line=(error.line or 1) if error else 1,
        today=today,
        roster=roster,
        extra=extra,
    )
    inputs = Inputs(
        # surrogatepass: a hand-made ledger (tests, tools) may hold a lone surrogate.
        ledger=hashlib.sha256(fresh.dumps().encode("utf-8", "surrogatepass")).hexdigest(),
        overlay=overlay.sha256 if overlay is not None else None,
    )
    result = GateResult(tuple(status) + joined.checks, joined.jobs, changes=changes, inputs=inputs)
    # With a base, only entries the base's baseline holds apply; the others fail (baseline/base).
    known, grown = held_by_base(config, base, known)
    result = apply_baseline(result, known, config.display(config.baseline_path))
    return dataclasses.replace(result, checks=result.checks + grown) if grown else result


def _roster(config: Config, status: list[Check]) -> Roster | None:
    """The owners roster, when one is configured; its status item joins ``status``."""
    if config.owners_path is None:
        return None
    display = config.display(config.owners_path)
    try:
        roster = load_roster(config.owners_path, display, root=config.root)
    except OverlayError as exc:
        status.append(owners_status(exc, display))
        return None
    status.append(owners_status(None, display))
    return roster


def _base(config: Config, ref: str) -> tuple[Base | None, str | None]:
    try:
        return read_base(config, ref), None
    except git.GitUnavailable as exc:
        return None, exc.reason
