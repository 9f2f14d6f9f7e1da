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

FRAMEWORKS: tuple[str, ...] = ("celery", "rq", "dramatiq", "huey", "custom")

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
    unresolved: Mapping[str, str] = field(default_factory=dict)
    defaults: Mapping[str, str] = field(default_factory=dict)

    @property
    def location(self) -> str:
        return f"{self.path}:{self.line}"

    def to_json(self) -> dict[str, Any]:
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
        return cls(**{key: data[key] for key in LEDGER_KEYS if key in data})


@dataclass(frozen=True)
class Unsupported:
    """A place where a job may be registered in a way the parser cannot follow.

    It is never guessed and never dropped: the gate fails on it until the code changes or the
    place is excluded on purpose.
    """

    path: str
    line: int
    pattern: Pattern
    message: str

    @property
    def location(self) -> str:
        return f"{self.path}:{self.line}"

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "pattern": self.pattern.value,
            "message": self.message,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Unsupported:
        return cls(
            path=data["path"],
            line=data["line"],
            pattern=Pattern(data["pattern"]),
            message=data["message"],
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
        return cls.build(
            [Job.from_json(row) for row in data.get("jobs", [])],
            [Unsupported.from_json(row) for row in data.get("unsupported", [])],
        )
