"""A signed promise checked against what the code says: the cross-lane items of one job.

``idempotent: "no"`` (or ``business_idempotent: "no"``) is a promise about a second run; the
ledger row says whether the framework makes one (:mod:`pytest_jobledger.ledger.reruns`). When it
does and no ``dedupe_guard`` is signed, the runbook would present a double charge as policy: the
job's ``rerun`` item fails, at the promise's line, naming the registration's line and the fix.
Pure: it reads the joined job's row and entry, and a predicate that says whether a cell is signed
(the same judgement the cell's own item makes).

A ``dead_letter_queue`` cell is the other promise tied to code: the queue it names must be one
the code declares (:func:`declared_queues`), or the poison policy rots when the queue is renamed;
:class:`~.cells.CellRules` judges the cell against that set.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..findings import Check, Finding, Kind
from ..ledger.model import Job, Ledger
from ..ledger.reruns import NOT_SET, reruns
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
        also=((job.path, job.line),),
    )
    return Check.failed(finding)


DEAD_LETTER = "dead_letter_queue"
#: Dramatiq parks a message that exhausted its retries on ``<queue>.XQ`` (its dead-letter
#: queue), documented at https://dramatiq.io/guide.html#dead-letters; the default queue is
#: ``default``.
DRAMATIQ_DEAD_LETTER = "{queue}.XQ"


def declared_queues(ledger: Ledger, broker: Sequence[str]) -> frozenset[str]:
    """Every queue the code declares (each job's queue, Celery routes included, and Dramatiq's
    dead-letter queue of each of its queues) and the configured broker-side queues."""
    found = set(broker)
    for job in ledger.jobs:
        queue = job.queue
        if queue is None and job.framework == "dramatiq" and job.unresolved.get("queue") == NOT_SET:
            queue = "default"
        if queue is None:
            continue
        found.add(queue)
        if job.framework == "dramatiq":
            found.add(DRAMATIQ_DEAD_LETTER.format(queue=queue))
    return frozenset(found)
