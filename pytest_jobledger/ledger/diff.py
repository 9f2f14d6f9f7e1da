"""What changed between two ledgers, field by field: the one diff the whole tool reads.

The ``ledger-fresh`` status message (committed file vs a fresh extraction), the gate's
``review-after-change`` item (the base's committed ledger vs now) and ``jobledger diff`` all read
:func:`diff_ledgers`. A job is matched by id. Where it sits (``path``, ``line``, and the
``module``/``function`` that registered-name ids let move) is told apart as a *move*, never a
change; a change is what an operator would see differ: the framework, the decorator, a resolved
field (with the reason when it is ``null``), the docstring, an option. ``defaults`` (where a value
was written) is not compared: the value itself is. Digits in a reason are not compared either,
since ``bound more than once (lines 3, 9)`` only says where.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.text import checked_out
from .model import RESOLVED_FIELDS, SCHEMA_VERSION, Job, JSONValue, Ledger, Unsupported
from .store import parse_ledger

#: How many ids (or changed jobs) a summary names per category before it says "and N more".
NAMED = 5

#: Where a job is written; a difference here alone is a move.
LOCATION_FIELDS: tuple[str, ...] = ("path", "line", "module", "function")

#: What a job says, compared field by field (options are compared key by key after these).
COMPARED_FIELDS: tuple[str, ...] = ("framework", "decorator", *RESOLVED_FIELDS, "docstring")

#: The reason extraction gives a field the registration leaves out (shown as "not set").
NOT_SET = "not set at registration"

ADDED, REMOVED, CHANGED = "added", "removed", "changed"
_DIGITS = re.compile(r"\d+")
_BARE = re.compile(r"[\w.:/@+-]+")


@dataclass(frozen=True)
class FieldChange:
    """One field of one job, before and after; ``how`` is added, removed or changed.

    ``before_reason``/``after_reason`` say why a ``null`` value is ``null``. The same record
    carries a changed overlay cell (:mod:`pytest_jobledger.gate.changes`).
    """

    field: str
    how: str
    before: JSONValue = None
    after: JSONValue = None
    before_reason: str | None = None
    after_reason: str | None = None

    def describe(self) -> str:
        """``max_retries 3 -> 20``, ``acks_late added (true)``, ``time_limit_s 1 -> null (why)``."""
        name = self.field.removeprefix("options.")
        if self.how == ADDED:
            return f"{name} added ({show(self.after, self.after_reason)})"
        if self.how == REMOVED:
            return f"{name} removed (was {show(self.before, self.before_reason)})"
        if self.field == "docstring" or _long(self.before) or _long(self.after):
            return f"{name} changed"
        before = show(self.before, self.before_reason)
        return f"{name} {before} -> {show(self.after, self.after_reason)}"

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FieldChange:
        return cls(
            field=str(data["field"]),
            how=str(data["change"]),
            before=data.get("before"),
            after=data.get("after"),
            before_reason=data.get("before_reason"),
            after_reason=data.get("after_reason"),
        )

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"field": self.field, "change": self.how}
        if self.how != ADDED:
            data["before"] = self.before
            if self.before_reason is not None:
                data["before_reason"] = self.before_reason
        if self.how != REMOVED:
            data["after"] = self.after
            if self.after_reason is not None:
                data["after_reason"] = self.after_reason
        return data


@dataclass(frozen=True)
class JobChange:
    """A job in both ledgers: what it says differently, and where it moved from and to."""

    id: str
    fields: tuple[FieldChange, ...] = ()
    moved_from: str | None = None
    moved_to: str | None = None

    def describe(self) -> str:
        """``max_retries 5 -> 6, queue billing -> default`` (``moved a.py:3 -> a.py:9`` alone)."""
        if self.fields:
            return ", ".join(change.describe() for change in self.fields)
        return f"moved {self.moved_from} -> {self.moved_to}"

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "id": self.id,
            "fields": [change.to_json() for change in self.fields],
        }
        if self.moved_from is not None:
            data["moved"] = {"from": self.moved_from, "to": self.moved_to}
        return data


@dataclass(frozen=True)
class LedgerDiff:
    """Every difference between two ledgers, each list sorted by id (or place)."""

    added: tuple[Job, ...] = ()
    removed: tuple[Job, ...] = ()
    changed: tuple[JobChange, ...] = ()
    """Jobs that say something different (and may also have moved)."""
    moved: tuple[JobChange, ...] = ()
    """Jobs that only moved: not a change an operator sees."""
    unsupported_added: tuple[Unsupported, ...] = ()
    unsupported_removed: tuple[Unsupported, ...] = ()

    @property
    def empty(self) -> bool:
        return not (
            self.added
            or self.removed
            or self.changed
            or self.moved
            or self.unsupported_added
            or self.unsupported_removed
        )

    def change_of(self, job_id: str) -> JobChange | None:
        """The change of one job (``None``: unchanged, moved only, added or removed)."""
        for change in self.changed:
            if change.id == job_id:
                return change
        return None

    def to_json(self) -> dict[str, object]:
        return {
            "added": [job.id for job in self.added],
            "removed": [job.id for job in self.removed],
            "changed": [change.to_json() for change in self.changed],
            "moved": [change.to_json() for change in self.moved],
            "unsupported_added": [item.to_json() for item in self.unsupported_added],
            "unsupported_removed": [item.to_json() for item in self.unsupported_removed],
        }


def diff_ledgers(before: Ledger, after: Ledger) -> LedgerDiff:
    """Field by field, what ``after`` says differently from ``before``."""
    old, new = _rows(before), _rows(after)
    changed: list[JobChange] = []
    moved: list[JobChange] = []
    for job_id in sorted(old.keys() & new.keys()):
        change = _job_change(job_id, old[job_id], new[job_id])
        if change is None:
            continue
        (changed if change.fields else moved).append(change)
    old_unsupported, new_unsupported = set(before.unsupported), set(after.unsupported)
    return LedgerDiff(
        added=tuple(new[key][0] for key in sorted(new.keys() - old.keys())),
        removed=tuple(old[key][0] for key in sorted(old.keys() - new.keys())),
        changed=tuple(changed),
        moved=tuple(moved),
        unsupported_added=tuple(i for i in after.unsupported if i not in old_unsupported),
        unsupported_removed=tuple(i for i in before.unsupported if i not in new_unsupported),
    )


def field_changes(before: Job, after: Job) -> tuple[FieldChange, ...]:
    """What one job says differently, in documentation order, then options by key."""
    changes: list[FieldChange] = []
    for name in COMPARED_FIELDS:
        a, b = getattr(before, name), getattr(after, name)
        ra, rb = before.unresolved.get(name), after.unresolved.get(name)
        if a != b or _reason_key(ra) != _reason_key(rb):
            changes.append(FieldChange(name, CHANGED, a, b, ra, rb))
    for key in sorted(before.options.keys() | after.options.keys()):
        name = f"options.{key}"
        ra, rb = before.unresolved.get(name), after.unresolved.get(name)
        if key not in before.options:
            changes.append(FieldChange(name, ADDED, after=after.options[key], after_reason=rb))
        elif key not in after.options:
            changes.append(FieldChange(name, REMOVED, before=before.options[key], before_reason=ra))
        elif before.options[key] != after.options[key] or _reason_key(ra) != _reason_key(rb):
            changes.append(
                FieldChange(name, CHANGED, before.options[key], after.options[key], ra, rb)
            )
    return tuple(changes)


def _job_change(job_id: str, before: list[Job], after: list[Job]) -> JobChange | None:
    if len(before) > 1 or len(after) > 1:
        # Duplicate ids are their own finding; their rows are compared as a whole.
        was, now = [job.location for job in before], [job.location for job in after]
        if [_what(job) for job in before] != [_what(job) for job in after]:
            return JobChange(job_id, (FieldChange("registrations", CHANGED, list(was), list(now)),))
        if was != now:
            return JobChange(job_id, moved_from=", ".join(was), moved_to=", ".join(now))
        return None
    old, new = before[0], after[0]
    fields = field_changes(old, new)
    if _where(old) != _where(new):
        return JobChange(job_id, fields, old.location, new.location)
    return JobChange(job_id, fields) if fields else None


def _what(job: Job) -> tuple[Any, ...]:
    """What a job says, with reasons' digits masked: equal exactly when no field changed."""
    reasons = sorted((key, _reason_key(reason)) for key, reason in job.unresolved.items())
    options = json.dumps(job.options, sort_keys=True)
    return (*(getattr(job, key) for key in COMPARED_FIELDS), options, tuple(reasons))


def _where(job: Job) -> tuple[Any, ...]:
    return tuple(getattr(job, key) for key in LOCATION_FIELDS)


def _reason_key(reason: str | None) -> str | None:
    return _DIGITS.sub("N", reason) if reason is not None else None


def _rows(ledger: Ledger) -> dict[str, list[Job]]:
    rows: dict[str, list[Job]] = {}
    for job in ledger.jobs:
        rows.setdefault(job.id, []).append(job)
    return rows


def _long(value: JSONValue) -> bool:
    return isinstance(value, (dict, list)) or (isinstance(value, str) and len(value) > 60)


def show(value: JSONValue, reason: str | None = None) -> str:
    """A value as a diff names it: bare words bare, other text and JSON as JSON, a ``null`` with
    its reason (``not set`` when the registration leaves it out)."""
    if value is None:
        if reason == NOT_SET:
            return "not set"
        return f"null ({reason})" if reason else "null"
    if isinstance(value, str) and _BARE.fullmatch(value):
        return value
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def summary(diff: LedgerDiff, limit: int = NAMED) -> str:
    """The diff in one sentence, ``and N more`` past ``limit`` names per category:
    ``orders.tasks.reserve_stock: max_retries 5 -> 6; added a, b; removed c``."""
    parts = [f"{change.id}: {change.describe()}" for change in diff.changed[:limit]]
    if len(diff.changed) > limit:
        parts.append(f"and {len(diff.changed) - limit} more changed jobs")
    for label, ids in (
        ("added", [job.id for job in diff.added]),
        ("removed", [job.id for job in diff.removed]),
        ("moved", [change.id for change in diff.moved]),
    ):
        if ids:
            parts.append(f"{label} {name_some(ids, limit)}")
    for label, items in (
        ("new unsupported", diff.unsupported_added),
        ("no longer unsupported", diff.unsupported_removed),
    ):
        if items:
            parts.append(f"{label} {name_some([item.location for item in items], limit)}")
    return "; ".join(parts)


def ledger_diff(committed: str, fresh: Ledger) -> str:
    """What changed between the committed ledger's text and a fresh extraction, in one sentence."""
    old, problem = parse_ledger(committed)
    if old is None:
        return f"the committed file cannot be compared: {problem}"
    data = json.loads(committed)
    diff = diff_ledgers(old, fresh)
    parts = [] if diff.empty else [summary(diff)]
    if isinstance(data, Mapping) and data.get("schema_version") != SCHEMA_VERSION:
        parts.append(f"schema_version {data.get('schema_version')!r}")
    if not parts:
        return "the same jobs, but the file's text differs (formatting or key order edited by hand)"
    return "; ".join(parts)


def stale_line(committed: str, expected: str) -> int | None:
    """Whether a committed file (the ledger, the runbook) is what the tool writes now: ``None``
    when it is, else the first line that differs. The one freshness rule: the tool writes LF
    only, so a CRLF checkout (``core.autocrlf``) of an up-to-date file is fresh."""
    committed = checked_out(committed)
    if committed == expected:
        return None
    return first_difference(committed, expected)


def first_difference(a: str, b: str) -> int:
    """The 1-based number of the first line where ``a`` and ``b`` differ."""
    left, right = a.splitlines(), b.splitlines()
    for index, (x, y) in enumerate(zip(left, right, strict=False)):
        if x != y:
            return index + 1
    return min(len(left), len(right)) + 1


def name_some(ids: Sequence[str], limit: int = NAMED) -> str:
    """``a, b, c and 4 more``: the first ``limit`` ids, then how many are left out."""
    named = ", ".join(ids[:limit])
    more = len(ids) - limit
    return f"{named} and {more} more" if more > 0 else named


# -- what operators will see change (``jobledger diff``, the job summary's first table) ----------


@dataclass(frozen=True)
class JobChanges:
    """One job as a pull request changes it: its ledger fields and its policy cells side by side.

    ``status`` is ``added``/``removed`` (the job), ``changed`` (its ledger row) or ``policy``
    (only its overlay entry changed).
    """

    job: str
    status: str
    ledger: tuple[FieldChange, ...] = ()
    policy: tuple[FieldChange, ...] = ()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> JobChanges:
        return cls(
            job=str(data["id"]),
            status=str(data["status"]),
            ledger=tuple(FieldChange.from_json(row) for row in data.get("ledger", [])),
            policy=tuple(FieldChange.from_json(row) for row in data.get("policy", [])),
        )

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.job,
            "status": self.status,
            "ledger": [change.to_json() for change in self.ledger],
            "policy": [change.to_json() for change in self.policy],
        }


@dataclass(frozen=True)
class ChangeReport:
    """Everything that changed between a base and now, job by job, sorted by id."""

    base: str
    commit: str
    jobs: tuple[JobChanges, ...] = ()
    moved: tuple[str, ...] = ()
    """Jobs that only moved (path or line): listed by id, not a change operators see."""
    unsupported_added: tuple[str, ...] = ()
    unsupported_removed: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ChangeReport:
        """The inverse of :meth:`to_json` (the report travels to the presenter in a test report)."""
        return cls(
            base=str(data["base"]),
            commit=str(data["commit"]),
            jobs=tuple(JobChanges.from_json(row) for row in data.get("jobs", [])),
            moved=tuple(str(item) for item in data.get("moved", [])),
            unsupported_added=tuple(str(item) for item in data.get("unsupported_added", [])),
            unsupported_removed=tuple(str(item) for item in data.get("unsupported_removed", [])),
        )

    def to_json(self) -> dict[str, object]:
        return {
            "base": self.base,
            "commit": self.commit,
            "jobs": [job.to_json() for job in self.jobs],
            "moved": list(self.moved),
            "unsupported_added": list(self.unsupported_added),
            "unsupported_removed": list(self.unsupported_removed),
        }
