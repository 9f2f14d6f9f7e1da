"""What operators will see change: the ledger diff since a base joined with the overlay's.

Pure: the session reads the base (:func:`pytest_jobledger.session.read_base`): for each job whose
ledger row changed, that was added or removed, or whose overlay entry changed, the fields and the
cells side by side (:class:`~pytest_jobledger.findings.ChangeReport`).
"""

from __future__ import annotations

from ..findings import ChangeReport, JobChanges
from ..ledger.diff import ADDED, CHANGED, REMOVED, FieldChange, diff_ledgers
from ..ledger.model import JSONValue, Ledger
from ..overlay.model import Entry, Overlay
from .review import Base


def build_report(base: Base, fresh: Ledger, overlay: Overlay) -> ChangeReport:
    diff = diff_ledgers(base.ledger, fresh)
    rows: dict[str, JobChanges] = {}
    for job in diff.added:
        rows[job.id] = JobChanges(job.id, ADDED)
    for job in diff.removed:
        rows[job.id] = JobChanges(job.id, REMOVED)
    for change in diff.changed:
        rows[change.id] = JobChanges(change.id, CHANGED, change.fields)
    was, now = base.overlay.by_id(), overlay.by_id()
    for job_id in sorted(was.keys() | now.keys()):
        cells = cell_changes(was.get(job_id), now.get(job_id))
        if not cells:
            continue
        row = rows.get(job_id, JobChanges(job_id, "policy"))
        rows[job_id] = JobChanges(row.job, row.status, row.ledger, cells)
    return ChangeReport(
        base=base.ref,
        commit=base.commit,
        jobs=tuple(rows[key] for key in sorted(rows)),
        moved=tuple(change.id for change in diff.moved if change.id not in rows),
        unsupported_added=tuple(item.location for item in diff.unsupported_added),
        unsupported_removed=tuple(item.location for item in diff.unsupported_removed),
    )


def cell_changes(before: Entry | None, after: Entry | None) -> tuple[FieldChange, ...]:
    """The cells an entry added, removed or changed, in the order the entry now writes them."""
    old = {cell.key: cell.value for cell in before.cells} if before is not None else {}
    new = {cell.key: cell.value for cell in after.cells} if after is not None else {}
    order = [*new, *(key for key in old if key not in new)]
    changes: list[FieldChange] = []
    for key in order:
        if key not in old:
            changes.append(FieldChange(key, ADDED, after=_json(new[key])))
        elif key not in new:
            changes.append(FieldChange(key, REMOVED, before=_json(old[key])))
        elif old[key] != new[key]:
            changes.append(FieldChange(key, CHANGED, _json(old[key]), _json(new[key])))
    return tuple(changes)


def _json(value: object) -> JSONValue:
    """An overlay value as JSON data (a YAML date or other oddity as its text)."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, list):
        return [_json(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _json(item) for key, item in value.items()}
    return str(value)
