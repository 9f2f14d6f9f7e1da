"""The gate over one reading of the project: every input as read once, judged in one pure call.

The session (:mod:`pytest_jobledger.session`) reads the files and git; :func:`judge` only joins
what it was given, so the fresh view and the committed view of one session are the same join over
the same inputs, and a test can build a :class:`Readings` by hand.
"""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.errors import OverlayError
from ..findings import Check, GateResult, Inputs
from ..ledger.model import Ledger
from ..overlay.model import Overlay
from ..project import Config
from .join import join

if TYPE_CHECKING:  # the records' types; what judges them is imported by judge alone, so the
    # committed view (``list``, ``show``, ``verdict``) does not pay for the fresh gate's items
    from ..baseline import BaseBaseline
    from ..overlay.roster import Roster
    from .review import Base
    from .signers import Blame


@dataclass(frozen=True)
class CommittedLedger:
    """The committed ledger file as read: ``raw`` its exact bytes (what an audit line hashes),
    ``text`` their UTF-8 text with CRLF line endings undone, ``ledger`` that text parsed.

    No file: all ``None``. ``unreadable`` says why the file could not be read as text at all;
    ``problem`` why its text is not a ledger.
    """

    raw: bytes | None = None
    text: str | None = None
    ledger: Ledger | None = None
    unreadable: str | None = None
    problem: str | None = None


@dataclass(frozen=True)
class BaseReading:
    """The base a run compares with: the ref asked for, and what it committed or why nothing;
    ``baseline`` is what the base's baseline file vouches for (``baseline/base``)."""

    ref: str
    base: Base | None
    reason: str | None = None
    baseline: BaseBaseline | None = None


@dataclass(frozen=True)
class Readings:
    """Everything the gate judges, read once: the fresh extraction, the committed ledger, the
    overlay (or why it cannot be used), the owners roster (``roster_error``: why not; both
    ``None``: none configured), the base, and the day reviews are dated against."""

    fresh: Ledger
    committed: CommittedLedger
    overlay: Overlay | None
    overlay_error: OverlayError | None
    today: datetime.date
    #: The sha256 of the overlay's bytes as read (``None``: no file), parsed or not.
    overlay_sha256: str | None = None
    roster: Roster | None = None
    roster_error: OverlayError | None = None
    base: BaseReading | None = None
    #: With ``same_signer``: who last changed each overlay line (:mod:`.signers`), or why git
    #: cannot say (``signers_error``); both ``None`` when not configured.
    signers: Blame | None = None
    signers_error: str | None = None


def judge(readings: Readings, config: Config) -> GateResult:
    """The fresh gate: the status items first, then the join of the fresh ledger with the
    overlay (and what changed since the base), as ``jobledger check`` and pytest report it."""
    from .changes import build_report
    from .review import base_status, review_checks
    from .signers import same_signer_checks, signers_status
    from .status import jobs_status, ledger_status, overlay_status, owners_status

    fresh, overlay, error = readings.fresh, readings.overlay, readings.overlay_error
    committed = readings.committed
    status = [
        overlay_status(error, config.overlay_display),
        ledger_status(committed.text, fresh, config, unreadable=committed.unreadable),
        jobs_status(fresh, config),
    ]
    if config.owners_path is not None:
        status.append(owners_status(readings.roster_error, config.display(config.owners_path)))
    extra: list[Check] = []
    if config.review.same_signer and overlay is not None and overlay.exists:
        status.append(signers_status(readings.signers_error, config.overlay_display))
        if readings.signers is not None:
            extra.extend(same_signer_checks(overlay, readings.signers))
    changes = None
    if readings.base is not None:
        found = readings.base.base
        status.append(base_status(config, readings.base.ref, found, readings.base.reason))
        if found is not None and overlay is not None:
            extra = review_checks(found, fresh, overlay, config)
            changes = build_report(found, fresh, overlay)
    joined = join(
        fresh,
        overlay,
        config,
        unreadable_line=(error.line or 1) if error else 1,
        today=readings.today,
        roster=readings.roster,
        extra=extra,
    )
    inputs = Inputs(
        # surrogatepass: a hand-made ledger (tests, tools) may hold a lone surrogate.
        ledger=hashlib.sha256(fresh.dumps().encode("utf-8", "surrogatepass")).hexdigest(),
        overlay=overlay.sha256 if overlay is not None else None,
    )
    return GateResult(tuple(status) + joined.checks, joined.jobs, changes=changes, inputs=inputs)
