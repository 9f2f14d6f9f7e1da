"""A plan: exactly what an approver signs, as canonical JSON.

``jobledger verdict JOB --action A [--count N] [--ticket T] --plan -o plan.json`` writes it: the
job, the action, the count, the ticket, the sha256 of the ledger row and of the overlay entry the
verdict read, the tool version, when it was made and expires (UTC), and the trail it is for: the
trail's identity (:mod:`pytest_jobledger.audit.identity`) and its head when the plan was made. A
signature over it approves in that trail only, and only while the trail holds the plan's event.
An approver signs those bytes with ``ssh-keygen -Y sign``; ``--approval plan.json.sig`` derives
the plan again from the inputs as they are then, and a signature counts only over a plan that is
still the same (the same job, action, count, ticket and trail, an unchanged row and entry, not
expired).

Pure: bytes in, bytes and records out. The clock is the session's: ``JOBLEDGER_TODAY`` pins it
(to that day's midnight, UTC), so a test and a rerun see the same plan.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..ledger.model import Job
from ..overlay.model import Entry

#: The plan's own format; a plan of another format is not one this tool can compare.
PLAN_FORMAT = 2
#: What the ``kind`` key says, so a plan is never mistaken for another JSON file someone signed.
KIND = "jobledger-plan"
#: How long a plan can be approved: an incident's shift, not a standing permission.
VALID_FOR = datetime.timedelta(hours=24)
#: A plan is a few hundred bytes; a larger file is not one.
MAX_PLAN_BYTES = 64 * 1024

#: The fields compared between a plan and the one derived again, and what each is called.
BOUND = {
    "job": "the job",
    "action": "the action",
    "count": "the count",
    "ticket": "the ticket",
    "ledger_row_sha256": "the job's ledger row",
    "overlay_entry_sha256": "the job's overlay entry",
    "version": "the tool version",
    "trail": "the audit trail",
}
#: The rule subject of each bound field (``approval-refused:<subject>``).
SUBJECTS = {
    "job": "job",
    "action": "action",
    "count": "count",
    "ticket": "ticket",
    "ledger_row_sha256": "ledger-row",
    "overlay_entry_sha256": "overlay-entry",
    "version": "version",
    "trail": "trail",
}


class NotAPlan(ValueError):
    """The file is not a plan this tool wrote (``str(exc)`` says why)."""


@dataclass(frozen=True)
class Plan:
    """One plan. ``count`` is ``None`` for a single job; ``overlay_entry_sha256`` is ``None``
    when the job has no entry."""

    job: str
    action: str
    count: int | None
    ticket: str | None
    ledger_row_sha256: str
    overlay_entry_sha256: str | None
    version: str
    created: str
    expires: str
    #: How many lines the trail held when the plan was made: two plans for the same request are
    #: never the same bytes (each plan is recorded), so one signature approves one batch.
    trail_lines: int = 0
    #: The identity of the trail the plan was made in (``None``: a trail with no line yet, which
    #: never approves), and that trail's head then (the sha256 of its last line).
    trail: str | None = None
    trail_head: str = "0" * 64

    def to_json(self) -> dict[str, Any]:
        return {
            "format": PLAN_FORMAT,
            "kind": KIND,
            "job": self.job,
            "action": self.action,
            "count": self.count,
            "ticket": self.ticket,
            "ledger_row_sha256": self.ledger_row_sha256,
            "overlay_entry_sha256": self.overlay_entry_sha256,
            "version": self.version,
            "created": self.created,
            "expires": self.expires,
            "trail_lines": self.trail_lines,
            "trail": self.trail,
            "trail_head": self.trail_head,
        }

    def encode(self) -> bytes:
        """The canonical bytes: sorted keys, two-space indent, ASCII, one final newline."""
        return (json.dumps(self.to_json(), indent=2, sort_keys=True) + "\n").encode("ascii")

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.encode()).hexdigest()

    def expired(self, now: datetime.datetime) -> bool:
        return now >= parse_time(self.expires)

    def differences(self, derived: Plan) -> list[tuple[str, str]]:
        """Each bound field where this plan and ``derived`` differ: (subject, message)."""
        mine, theirs = self.to_json(), derived.to_json()
        return [
            (
                SUBJECTS[key],
                f"the signed plan is for {what} {_shown(mine[key])}, this request is for "
                f"{_shown(theirs[key])}",
            )
            for key, what in BOUND.items()
            if mine[key] != theirs[key]
        ]


def _shown(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, str) and len(value) == 64:
        return f"sha256 {value[:12]}"
    return json.dumps(value)


def row_sha256(job: Job) -> str:
    """The sha256 of the job's ledger row as canonical JSON (what the plan binds to)."""
    return _digest(job.to_json())


def entry_sha256(entry: Entry | None) -> str | None:
    """The sha256 of the job's overlay entry (its cells and their values, not their lines: an
    entry moved in the file is the same entry), or ``None`` when there is none."""
    if entry is None:
        return None
    return _digest({"job": entry.job, "cells": {cell.key: cell.value for cell in entry.cells}})


def _digest(value: Mapping[str, Any]) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def clock(today: datetime.date, *, pinned: bool) -> datetime.datetime:
    """Now, in UTC to the second; with a pinned day (``JOBLEDGER_TODAY``), that day's midnight."""
    if pinned:
        return datetime.datetime.combine(today, datetime.time(), datetime.timezone.utc)
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)


def format_time(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_time(text: str) -> datetime.datetime:
    moment = datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
    return moment.replace(tzinfo=datetime.timezone.utc)


def new_plan(
    *,
    job: str,
    action: str,
    count: int | None,
    ticket: str | None,
    ledger_row: str,
    overlay_entry: str | None,
    version: str,
    now: datetime.datetime,
    trail_lines: int = 0,
    trail: str | None = None,
    trail_head: str = "0" * 64,
) -> Plan:
    return Plan(
        job=job,
        action=action,
        count=count,
        ticket=ticket,
        ledger_row_sha256=ledger_row,
        overlay_entry_sha256=overlay_entry,
        version=version,
        created=format_time(now),
        expires=format_time(now + VALID_FOR),
        trail_lines=trail_lines,
        trail=trail,
        trail_head=trail_head,
    )


def parse_plan(raw: bytes) -> Plan:
    """The plan in ``raw``, or :class:`NotAPlan`: exactly the canonical bytes this tool writes
    (an edited plan is refused here, before any signature is looked at)."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise NotAPlan("it is not JSON") from None
    if not isinstance(data, dict) or data.get("kind") != KIND:
        raise NotAPlan(f'it is not a jobledger plan (no "kind": "{KIND}")')
    if data.get("format") != PLAN_FORMAT:
        raise NotAPlan(f"its format is {data.get('format')!r}; this tool reads {PLAN_FORMAT}")
    try:
        plan = Plan(
            job=_text(data, "job"),
            action=_text(data, "action"),
            count=_count(data),
            ticket=_text(data, "ticket", optional=True),
            ledger_row_sha256=_text(data, "ledger_row_sha256"),
            overlay_entry_sha256=_text(data, "overlay_entry_sha256", optional=True),
            version=_text(data, "version"),
            created=_time(data, "created"),
            expires=_time(data, "expires"),
            trail_lines=_lines(data),
            trail=_text(data, "trail", optional=True),
            trail_head=_text(data, "trail_head"),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise NotAPlan(f"its {exc.args[0] if exc.args else 'fields'} is missing or wrong") from None
    if set(data) != set(plan.to_json()) or plan.encode() != raw:
        raise NotAPlan("it is not byte for byte the plan jobledger wrote (it was edited)")
    return plan


def _text(data: Mapping[str, Any], key: str, *, optional: bool = False) -> Any:
    value = data[key]
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise TypeError(key)
    return value


def _count(data: Mapping[str, Any]) -> int | None:
    value = data["count"]
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("count")
    return value


def _lines(data: Mapping[str, Any]) -> int:
    value = data["trail_lines"]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TypeError("trail_lines")
    return value


def _time(data: Mapping[str, Any], key: str) -> str:
    value = _text(data, key)
    try:
        parse_time(value)
    except ValueError:
        raise ValueError(key) from None
    return str(value)
