"""A signed promise checked against what the code says: the cross-lane items of one job.

``idempotent: "no"`` (or ``business_idempotent: "no"``) is a promise about a second run; the
ledger row says whether the framework makes one (:mod:`pytest_jobledger.ledger.reruns`). When it
does and no ``dedupe_guard`` is signed, the runbook would present a double charge as policy: the
job's ``rerun`` item fails, at the promise's line, naming the registration's line and the fix.
Pure: it reads the joined job's row and entry, and a predicate that says whether a cell is signed
(the same judgement the cell's own item makes).
"""

from __future__ import annotations

from collections.abc import Callable

from ..findings import Check, Finding, Kind
from ..ledger.model import Job
from ..ledger.reruns import reruns
from ..overlay.model import Cell, Entry

RERUN_CELL = "rerun"
#: The cells whose "no" a framework's rerun contradicts, in the order they are named.
PROMISES = ("idempotent", "business_idempotent")
GUARD = "dedupe_guard"


def rerun_check(
    job: Job, entry: Entry | None, path: str, signed: Callable[[Cell], bool]
) -> Check | None:
    """The job's ``rerun`` item, or ``None`` when the framework runs it once (or nothing is
    signed "no" yet: an unsigned promise is the cell's own item)."""
    found = reruns(job)
    if entry is None or not found:
        return None
    promise = next(
        (
            cell
            for name in PROMISES
            if (cell := entry.get(name)) is not None and cell.value == "no" and signed(cell)
        ),
        None,
    )
    guard = entry.get(GUARD)
    if promise is None:
        return None
    if guard is not None and signed(guard):
        return Check(job.id, RERUN_CELL, path, guard.value_line)
    facts = "; ".join(rerun.text for rerun in found)
    message = (
        f'Job {job.id} is signed `{promise.key}: "no"` at {path}:{promise.value_line}, but its '
        f"registration at {job.location} says the framework runs it again: {facts}. A job that "
        "is not idempotent and runs twice does its effect twice (a second charge, a second "
        f"row). Sign `{GUARD}:` under the entry with how a duplicate is prevented or made "
        "harmless (for example a unique key the job checks before it acts), or turn the rerun "
        f"off at {job.location} (the setting named above) and run `jobledger extract`."
    )
    finding = Finding(
        kind=Kind.RERUN_NOT_IDEMPOTENT,
        job=job.id,
        cell=RERUN_CELL,
        path=path,
        line=promise.value_line,
        message=message,
    )
    return Check.failed(finding)
