"""The ledger's records: what extraction produces and every later stage reads.

These are plain frozen values so that extraction, the join, the stub writer and every presenter can
share them without any of them knowing how the others work. The file's contract is
``schemas/ledger.schema.json``; a test keeps :class:`Pattern` and the schema in step.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

SCHEMA_VERSION = 1

#: A JSON value as it may appear under a job's ``options``.
JSONValue = Union[None, bool, int, float, str, list["JSONValue"], dict[str, "JSONValue"]]  # noqa: UP007

#: The ledger-owned fields whose value is either proved from source or ``null`` with a reason.
#: Order is the order a reader meets them in documentation.
RESOLVED_FIELDS: tuple[str, ...] = (
    "name",
    "queue",
    "max_retries",
    "retry_delay_s",
    "soft_time_limit_s",
    "time_limit_s",
)

#: How a value written in the app's configuration, not at the registration, names its origin
#: under ``defaults`` (``config task_routes at celery_app.py:12``): the runbook's **config** lane.
CONFIG_ORIGIN = "config "

#: Every key a ledger row has; the overlay may carry none of them (they are the ledger's lane).
LEDGER_KEYS: tuple[str, ...] = (
    "id",
    "function",
    "module",
    "path",
    "line",
    "framework",
    "decorator",
    *RESOLVED_FIELDS,
    "docstring",
    "options",
    "unresolved",
    "defaults",
)

#: Keys a row has only when they hold something (a ledger that sets none reads as before).
OPTIONAL_LEDGER_KEYS: tuple[str, ...] = ("delivery",)
#: Every key the ledger owns: none of them may be written in the overlay.
ALL_LEDGER_KEYS: tuple[str, ...] = (*LEDGER_KEYS, *OPTIONAL_LEDGER_KEYS)

#: The typed delivery options a row may carry (written only when one is set), by type: the
#: same keywords stay under ``options`` as written.
DELIVERY_TYPES: Mapping[str, str] = {
    "acks_late": "boolean",
    "reject_on_worker_lost": "boolean",
    "autoretry_for": "names",
    "retry_backoff": "boolean or seconds",
    "retry_jitter": "boolean",
    "rate_limit": "text",
    "expires_s": "seconds",
    "result_ttl_s": "seconds",
}

FRAMEWORKS: tuple[str, ...] = (
    "celery",
    "rq",
    "dramatiq",
    "huey",
    "django-tasks",
    "taskiq",
    "procrastinate",
    "arq",
    "saq",
    "custom",
)

Number = Union[int, float]  # noqa: UP007


class Pattern(str, enum.Enum):
    """Why a place could not be followed: the ``pattern`` of an :class:`Unsupported` entry."""

    FACTORY_REGISTRATION = "factory-registration"
    LOOP_REGISTRATION = "loop-registration"
    DYNAMIC_REGISTRATION = "dynamic-registration"
    SYNTAX_ERROR = "syntax-error"
    DECODE_ERROR = "decode-error"
    UNREADABLE = "unreadable"
    FILE_TOO_LARGE = "file-too-large"
    TOO_COMPLEX = "too-complex"
    AMBIGUOUS_NAME = "ambiguous-name"
    UNRESOLVED_IMPORT = "unresolved-import"
    #: A ``# jobledger: ignore`` comment that accepts no problem on its line.
    UNUSED_IGNORE = "unused-ignore"
    #: A ``# jobledger: ignore`` comment with an unknown pattern or no reason.
    INVALID_IGNORE = "invalid-ignore"
    #: A job framework the parser has no table for (or a form of a known one it cannot read).
    UNSUPPORTED_FRAMEWORK = "unsupported-framework"
    #: Two places that enqueue the same function disagree on one of its fields.
    CONFLICTING_ENQUEUE = "conflicting-enqueue"
    #: A Celery beat entry or ``send_task`` naming a task no scanned registration has.
    UNREGISTERED_TASK = "unregistered-task"


@dataclass(frozen=True)
class Job:
    """One job registration found in the tree.

    ``unresolved`` maps every field whose value is ``None`` to the reason it could not be proved;
    ``defaults`` maps fields filled from a homegrown decorator's literal parameter default to where
    that default is written, so a reader knows the value was not at the registration itself.
    """

    id: str
    function: str
    module: str
    path: str
    line: int
    framework: str
    decorator: str
    name: str | None = None
    queue: str | None = None
    max_retries: int | None = None
    retry_delay_s: Number | None = None
    soft_time_limit_s: Number | None = None
    time_limit_s: Number | None = None
    docstring: str | None = None
    options: Mapping[str, JSONValue] = field(default_factory=dict)
    #: Typed delivery options (:data:`DELIVERY_TYPES`), read from the same keywords as their
    #: ``options`` entries: what later rules reason about without parsing ``options``.
    delivery: Mapping[str, JSONValue] = field(default_factory=dict)
    unresolved: Mapping[str, str] = field(default_factory=dict)
    defaults: Mapping[str, str] = field(default_factory=dict)

    @property
    def location(self) -> str:
        return f"{self.path}:{self.line}"

    def to_json(self) -> dict[str, Any]:
        row = self._to_json()
        if self.delivery:  # absent when empty: a ledger without delivery options is unchanged
            row["delivery"] = dict(self.delivery)
        return row

    def _to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "function": self.function,
            "module": self.module,
            "path": self.path,
            "line": self.line,
            "framework": self.framework,
            "decorator": self.decorator,
            "name": self.name,
            "queue": self.queue,
            "max_retries": self.max_retries,
            "retry_delay_s": self.retry_delay_s,
            "soft_time_limit_s": self.soft_time_limit_s,
            "time_limit_s": self.time_limit_s,
            "docstring": self.docstring,
            "options": dict(self.options),
            "unresolved": dict(self.unresolved),
            "defaults": dict(self.defaults),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Job:
        """A row read back; :class:`NotALedger` names the first field of the wrong type (a
        hand-edited ``"options": [1]`` would otherwise crash whatever reads the row later)."""
        if not isinstance(data, Mapping):
            raise NotALedger(f"a job is {_kind(data)}, not an object")
        for key in _REQUIRED_JOB_KEYS:
            if key not in data:
                raise NotALedger(f'a job has no "{key}"')
        for key in ALL_LEDGER_KEYS:
            if key in data and not _JOB_TYPES[key](data[key]):
                raise NotALedger(
                    f'"{key}" is {_kind(data[key])}; it must be {_JOB_TYPE_NAMES[key]}'
                )
        return cls(**{key: data[key] for key in ALL_LEDGER_KEYS if key in data})


@dataclass(frozen=True)
class Unsupported:
    """A place where a job may be registered in a way the parser cannot follow.

    It is never guessed and never dropped: the gate fails on it until the code changes or the
    place is excluded on purpose. ``accepted`` holds the reason of a ``# jobledger: ignore``
    comment that accepts it on purpose: then the gate shows it as a notice, never failing.
    """

    path: str
    line: int
    pattern: Pattern
    message: str
    accepted: str | None = None

    @property
    def location(self) -> str:
        return f"{self.path}:{self.line}"

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "pattern": self.pattern.value,
            "message": self.message,
            **({"accepted": self.accepted} if self.accepted is not None else {}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Unsupported:
        """An entry read back, or :class:`NotALedger` saying which field is wrong."""
        if not isinstance(data, Mapping):
            raise NotALedger(f"an unsupported entry is {_kind(data)}, not an object")
        for key, check, name in (
            ("path", _text, "text"),
            ("line", _whole, "a whole number"),
            ("message", _text, "text"),
        ):
            if key not in data or not check(data[key]):
                found = _kind(data[key]) if key in data else "missing"
                raise NotALedger(f'an unsupported entry\'s "{key}" is {found}; it must be {name}')
        accepted = data.get("accepted")
        if accepted is not None and not _text(accepted):
            raise NotALedger(
                f'an unsupported entry\'s "accepted" is {_kind(accepted)}; it must be text'
            )
        if data.get("pattern") not in {pattern.value for pattern in Pattern}:
            raise NotALedger(
                f'an unsupported entry\'s "pattern" {data.get("pattern")!r} is not one this '
                "version knows"
            )
        return cls(
            path=data["path"],
            line=data["line"],
            pattern=Pattern(data["pattern"]),
            message=data["message"],
            accepted=accepted,
        )


def _job_sort_key(job: Job) -> tuple[str, str, int]:
    return (job.id, job.path, job.line)


def _unsupported_sort_key(item: Unsupported) -> tuple[str, int, str, str]:
    return (item.path, item.line, item.pattern.value, item.message)


@dataclass(frozen=True)
class Ledger:
    """Every job in the tree, and every registration the parser could not follow, in order."""

    jobs: tuple[Job, ...]
    unsupported: tuple[Unsupported, ...] = ()

    @classmethod
    def build(cls, jobs: Sequence[Job], unsupported: Sequence[Unsupported] = ()) -> Ledger:
        return cls(
            jobs=tuple(sorted(jobs, key=_job_sort_key)),
            unsupported=tuple(sorted(set(unsupported), key=_unsupported_sort_key)),
        )

    def duplicate_ids(self) -> dict[str, tuple[Job, ...]]:
        """Ids registered more than once; both rows are kept, never merged."""
        seen: dict[str, list[Job]] = {}
        for job in self.jobs:
            seen.setdefault(job.id, []).append(job)
        return {job_id: tuple(rows) for job_id, rows in seen.items() if len(rows) > 1}

    def by_id(self) -> dict[str, Job]:
        """The first row of each id (duplicates are reported separately)."""
        result: dict[str, Job] = {}
        for job in self.jobs:
            result.setdefault(job.id, job)
        return result

    def to_json(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "jobs": [job.to_json() for job in self.jobs],
            "unsupported": [item.to_json() for item in self.unsupported],
        }

    def dumps(self) -> str:
        """The ledger file's exact text: sorted keys, two-space indent, trailing newline."""
        return json.dumps(self.to_json(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Ledger:
        """The ledger read back; :class:`NotALedger` (with the failing job's id, if it has one)
        when any part of it is not what :meth:`to_json` writes."""
        if not isinstance(data, Mapping):
            raise NotALedger(f"the ledger is {_kind(data)}, not an object")
        rows = data.get("jobs", [])
        unsupported = data.get("unsupported", [])
        for key, value in (("jobs", rows), ("unsupported", unsupported)):
            if not isinstance(value, list):
                raise NotALedger(f'"{key}" is {_kind(value)}; it must be a list')
        jobs = []
        for index, row in enumerate(rows):
            try:
                jobs.append(Job.from_json(row))
            except NotALedger as error:
                job = row.get("id") if isinstance(row, Mapping) else None
                raise NotALedger(
                    f"job {index + 1}"
                    + (f" ({job})" if isinstance(job, str) else "")
                    + f": {error.detail}",
                    job=job if isinstance(job, str) else None,
                ) from None
        return cls.build(jobs, [Unsupported.from_json(row) for row in unsupported])


class NotALedger(ValueError):
    """JSON that is not a ledger this version wrote: what is wrong, and the job's id if known."""

    def __init__(self, detail: str, *, job: str | None = None) -> None:
        self.detail = detail
        self.job = job
        super().__init__(detail)


def _text(value: object) -> bool:
    return isinstance(value, str)


def _text_or_none(value: object) -> bool:
    return value is None or isinstance(value, str)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole_or_none(value: object) -> bool:
    return value is None or _whole(value)


def _number_or_none(value: object) -> bool:
    return value is None or (isinstance(value, (int, float)) and not isinstance(value, bool))


def _text_mapping(value: object) -> bool:
    return isinstance(value, dict) and all(
        isinstance(key, str) and isinstance(item, str) for key, item in value.items()
    )


def _options(value: object) -> bool:
    return isinstance(value, dict) and all(isinstance(key, str) for key in value)


def _delivery(value: object) -> bool:
    if not isinstance(value, dict):
        return False
    for key, item in value.items():
        kind = DELIVERY_TYPES.get(key)
        seconds = _number_or_none(item) and item is not None and item >= 0
        if kind is None or item is None:
            return False
        if kind == "boolean" and not isinstance(item, bool):
            return False
        if kind == "text" and not isinstance(item, str):
            return False
        if kind == "seconds" and not seconds:
            return False
        if kind == "boolean or seconds" and not (isinstance(item, bool) or seconds):
            return False
        if kind == "names" and not (
            isinstance(item, list) and all(isinstance(name, str) for name in item)
        ):
            return False
    return True


_REQUIRED_JOB_KEYS = ("id", "function", "module", "path", "line", "framework", "decorator")
_JOB_TYPES: dict[str, Any] = {
    **dict.fromkeys(("id", "function", "module", "path", "framework", "decorator"), _text),
    "line": _whole,
    **dict.fromkeys(("name", "queue", "docstring"), _text_or_none),
    "max_retries": _whole_or_none,
    **dict.fromkeys(("retry_delay_s", "soft_time_limit_s", "time_limit_s"), _number_or_none),
    "options": _options,
    "delivery": lambda value: _delivery(value),
    **dict.fromkeys(("unresolved", "defaults"), _text_mapping),
}
_JOB_TYPE_NAMES: dict[str, str] = {
    **dict.fromkeys(("id", "function", "module", "path", "framework", "decorator"), "text"),
    "line": "a whole number",
    **dict.fromkeys(("name", "queue", "docstring"), "text or null"),
    "max_retries": "a whole number or null",
    **dict.fromkeys(("retry_delay_s", "soft_time_limit_s", "time_limit_s"), "a number or null"),
    "options": "an object",
    "delivery": "an object of the typed delivery options",
    **dict.fromkeys(("unresolved", "defaults"), "an object of text values"),
}


def _kind(value: object) -> str:
    """What a JSON value is, in words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
