"""Same signer (opt-in, ``same_signer = true``): one author vouches for a job's idempotency and
its purpose.

The article's rule for the draft lane: whoever signs that a job is idempotent also accepts what
it does. The session reads who last changed each overlay line (``git blame`` at ``HEAD``, through
the one pinned git runner); here the last change to each cell's lines is compared. When history
cannot say (a shallow clone, no repository), the ``same-signer`` status item is a notice that
says how to fetch it: never a silent pass.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ..findings import Check, Finding, Kind, Level, Status
from ..overlay.model import Entry, Overlay

#: Overlay line -> (the author's email, the author time), as ``git blame`` reports it.
Blame = Mapping[int, tuple[str, int]]

SIGNER_CELL = "same-signer"
#: The two cells one person must have signed.
PAIR = ("idempotent", "purpose_accepted")


def signers_status(error: str | None, path: str) -> Check:
    """The ``same-signer`` status item: passes when history names the signers, a notice when
    it cannot (the per-job items are then not judged)."""
    if error is None:
        return Check.status(Status.SIGNERS, path, 1)
    finding = Finding(
        kind=Kind.SIGNERS_UNKNOWN,
        job="jobledger-status",
        cell=Status.SIGNERS.value,
        path=path,
        line=1,
        message=(
            f"same_signer is on, but git cannot say who last changed {path}: {error}. No job's "
            "signers were compared; fetch the history and run again."
        ),
        level=Level.NOTICE,
    )
    return Check.failed(finding)


def same_signer_checks(overlay: Overlay, blame: Blame) -> Iterator[Check]:
    """One ``<job>::same-signer`` item per entry that signs both cells."""
    for entry in overlay.entries:
        cells = [entry.get(name) for name in PAIR]
        if any(cell is None for cell in cells):
            continue
        authors = [_last_change(entry, name, overlay, blame) for name in PAIR]
        purpose = cells[1]
        assert purpose is not None
        if None in authors:  # not committed yet: said, never passed in silence
            finding = Finding(
                kind=Kind.SIGNERS_UNKNOWN,
                job=entry.job,
                cell=SIGNER_CELL,
                path=overlay.path,
                line=purpose.key_line,
                message=(
                    f"Job {entry.job}: `idempotent` or `purpose_accepted` has lines no commit "
                    "holds yet, so git cannot say who signed them; commit the overlay and run "
                    "again."
                ),
                level=Level.NOTICE,
            )
            yield Check.failed(finding)
            continue
        if authors[0][1] == authors[1][1]:  # type: ignore[index]
            yield Check(entry.job, SIGNER_CELL, overlay.path, purpose.key_line)
            continue
        idem_line, idem_author = authors[0]  # type: ignore[misc]
        purpose_line, purpose_author = authors[1]  # type: ignore[misc]
        finding = Finding(
            kind=Kind.DIFFERENT_SIGNERS,
            job=entry.job,
            cell=SIGNER_CELL,
            path=overlay.path,
            line=purpose_line,
            message=(
                f"Job {entry.job}: `idempotent` was last changed by {idem_author} "
                f"({overlay.path}:{idem_line}) but `purpose_accepted` by {purpose_author} "
                f"({overlay.path}:{purpose_line}); same_signer asks one person to vouch for "
                "both. Have one of them review the other's cell and commit it (touching the "
                "line makes them its last author)."
            ),
        )
        yield Check.failed(finding)


def _last_change(entry: Entry, name: str, overlay: Overlay, blame: Blame) -> tuple[int, str] | None:
    """The line of the cell's most recent change and its author (``None``: not in history)."""
    lines = list(_span(entry, name, overlay))
    known = [(blame[line][1], line, blame[line][0]) for line in lines if line in blame]
    if not known or len(known) < len(lines):
        return None
    _, line, author = max(known)
    return line, author


def _span(entry: Entry, name: str, overlay: Overlay) -> range:
    """The lines a cell is written on: its key line up to the next cell (or entry)."""
    cells = list(entry.cells)
    index = next(i for i, cell in enumerate(cells) if cell.key == name)
    cell = cells[index]
    if index + 1 < len(cells):
        return range(cell.key_line, cells[index + 1].key_line)
    later = [other.line for other in overlay.entries if other.line > entry.line]
    end = min(later) if later else max(cell.value_line, cell.key_line) + 1
    return range(cell.key_line, max(end, cell.key_line + 1))
