"""Review after change: a job whose ledger row changed since the base, while its signed overlay
entry did not, gets a ``review-after-change`` finding that lists the changes.

The base is read by the session (:func:`pytest_jobledger.session.read_base`, with ``git``): the
committed ledger and overlay as they were at the ref, through the same parsers as the tree's,
never by checking anything out or running code. Without a usable base (no git, not a repository,
a shallow clone without the commit, an unknown ref, no ledger committed there) the check says so
once, as the skipped ``jobledger-status::review-base`` item, and
judges nothing: it never guesses. A person clears a finding by touching the entry's cells in the
same pull request (for example updating ``reviewed_on``); comments and order do not count.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..findings import Check, Finding, Kind, Level, Status
from ..ledger.diff import LedgerDiff, diff_ledgers
from ..ledger.model import Ledger
from ..overlay.model import Entry, Overlay
from ..project import Config

REVIEW_CELL = "review-after-change"

LEVELS = {"warn": Level.WARNING, "fail": Level.ERROR}


@dataclass(frozen=True)
class Base:
    """What the base committed: its ledger, and its overlay (empty when it had none)."""

    ref: str
    commit: str
    ledger: Ledger
    overlay: Overlay


def base_status(config: Config, ref: str, base: Base | None, reason: str | None) -> Check:
    """Passes when the base was read; skipped (with the one line that says why) when not."""
    if base is not None:
        return Check.status(Status.BASE, config.ledger_display, 1)
    return Check.status(
        Status.BASE,
        config.ledger_display,
        1,
        skipped=(
            f"no base to review changes against: {reason}; review-after-change is not checked "
            f"against {ref!r}"
        ),
    )


def review_checks(
    base: Base, fresh: Ledger, overlay: Overlay, config: Config, diff: LedgerDiff | None = None
) -> list[Check]:
    """One finding per job that changed while its entry stayed as it was at the base."""
    level = LEVELS.get(config.review.on_change)
    if level is None:
        return []
    diff = diff if diff is not None else diff_ledgers(base.ledger, fresh)
    now, was = overlay.by_id(), base.overlay.by_id()
    checks: list[Check] = []
    for change in diff.changed:
        entry, before = now.get(change.id), was.get(change.id)
        if entry is None or before is None or _cells(entry) != _cells(before):
            continue  # unsigned (its own finding), or signed or touched in this change
        what = change.describe()
        message = (
            f"Job {change.id} changed since {base.ref} ({what}) but its signed entry at "
            f"{overlay.path}:{entry.line} did not. Its cells were signed for the old code: "
            "re-read each one against the change with the job's owner, then touch the entry in "
            "this pull request (for example set `reviewed_on` to today) to clear this."
        )
        finding = Finding(
            kind=Kind.REVIEW_AFTER_CHANGE,
            job=change.id,
            cell=REVIEW_CELL,
            path=overlay.path,
            line=entry.line,
            message=message,
            level=level,
        )
        checks.append(Check.failed(finding))
    return checks


def _cells(entry: Entry) -> dict[str, object]:
    """What an entry signs: its cells' values by key (comments, lines and order aside)."""
    return {cell.key: cell.value for cell in entry.cells}
