"""The runbook's model: every job with its ledger values, its policy cells and the lane of each.

These records are the JSON format (``jobledger render --format json``, described by
``schemas/runbook.schema.json``), so portals and other tools read the same facts as the page;
:mod:`.build` makes them from the gate's result and :mod:`.page` draws the Markdown from them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...findings import Finding
from ...ledger.model import CONFIG_ORIGIN, JSONValue
from .defaults import FrameworkDefault

SCHEMA_VERSION = 1

#: How a policy cell stands on the page. Only the first two may appear when publishing.
SIGNED = "signed"
OPTIONAL = "not-signed"
"""An optional cell nobody answered (it blocks nothing, and no value is shown)."""
UNSIGNED = "unsigned"
INVALID = "invalid"
NOT_JUDGED = "not-judged"
"""The overlay could not be read, so the gate could not judge the cell."""

PURPOSE = "purpose_accepted"


@dataclass(frozen=True)
class LedgerValue:
    """One ledger field (or literal option) of a job: the value the code proves, or ``None`` with
    the ledger's reason; ``origin`` says where a value not written at the registration is written
    (a decorator's parameter default, a base class); ``default`` is the framework's documented
    default, shown beside a ``None`` that the registration simply did not set."""

    field: str
    value: JSONValue = None
    reason: str | None = None
    origin: str | None = None
    default: FrameworkDefault | None = None

    @property
    def lane(self) -> str:
        """Where the value is from: ``code`` (the registration, or a parameter default or base
        class it names), ``config`` (the app's configuration, such as Celery's ``task_routes``)
        or ``default`` (the framework's documented default)."""
        if self.value is None and self.default is not None:
            return "default"
        if self.origin is not None and self.origin.startswith(CONFIG_ORIGIN):
            return "config"
        return "code"

    @property
    def where(self) -> str | None:
        """The origin without its lane's word (``task_routes at celery_app.py:12``)."""
        if self.origin is None:
            return None
        return self.origin.removeprefix(CONFIG_ORIGIN)

    def to_json(self) -> dict[str, Any]:
        return {
            "field": self.field,
            "value": self.value,
            "reason": self.reason,
            "origin": self.origin,
            "default": self.default.to_json() if self.default is not None else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LedgerValue:
        default = data.get("default")
        return cls(
            field=data["field"],
            value=data.get("value"),
            reason=data.get("reason"),
            origin=data.get("origin"),
            default=FrameworkDefault(**default) if default is not None else None,
        )


@dataclass(frozen=True)
class PolicyCell:
    """One policy cell: signed (``value`` is the answer, at the overlay's ``path:line``) or, in a
    preview only, a marker state with the finding that explains it. Never a blocked value."""

    cell: str
    state: str
    path: str
    line: int
    value: str | None = None
    finding: Finding | None = None

    @property
    def location(self) -> str:
        return f"{self.path}:{self.line}"

    def to_json(self) -> dict[str, Any]:
        return {
            "cell": self.cell,
            "state": self.state,
            "path": self.path,
            "line": self.line,
            "value": self.value,
            "finding": self.finding.to_json() if self.finding is not None else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PolicyCell:
        finding = data.get("finding")
        return cls(
            cell=data["cell"],
            state=data["state"],
            path=data["path"],
            line=data["line"],
            value=data.get("value"),
            finding=Finding.from_json(finding) if finding is not None else None,
        )


@dataclass(frozen=True)
class DraftNote:
    """An unverified draft of a purpose, shown only in a preview and never as the purpose."""

    text: str
    program: str
    stale: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "status": "unverified-draft",
            "text": self.text,
            "program": self.program,
            "stale": self.stale,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DraftNote:
        return cls(text=data["text"], program=data["program"], stale=data["stale"])


@dataclass(frozen=True)
class JobPage:
    """Everything the page says about one job."""

    id: str
    anchor: str
    function: str
    module: str
    framework: str
    decorator: str
    path: str
    line: int
    group: str | None
    ledger: tuple[LedgerValue, ...]
    options: tuple[LedgerValue, ...]
    policy: tuple[PolicyCell, ...]
    docstring: str | None
    findings: tuple[Finding, ...] = ()
    draft: DraftNote | None = None

    @property
    def location(self) -> str:
        return f"{self.path}:{self.line}"

    def cell(self, name: str) -> PolicyCell | None:
        return next((cell for cell in self.policy if cell.cell == name), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "anchor": self.anchor,
            "function": self.function,
            "module": self.module,
            "framework": self.framework,
            "decorator": self.decorator,
            "path": self.path,
            "line": self.line,
            "group": self.group,
            "ledger": [value.to_json() for value in self.ledger],
            "options": [value.to_json() for value in self.options],
            "policy": [cell.to_json() for cell in self.policy],
            "docstring": self.docstring,
            "findings": [finding.to_json() for finding in self.findings],
            "draft": self.draft.to_json() if self.draft is not None else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> JobPage:
        draft = data.get("draft")
        return cls(
            **{key: data[key] for key in _JOB_SCALARS},
            ledger=tuple(LedgerValue.from_json(row) for row in data["ledger"]),
            options=tuple(LedgerValue.from_json(row) for row in data["options"]),
            policy=tuple(PolicyCell.from_json(row) for row in data["policy"]),
            findings=tuple(Finding.from_json(row) for row in data["findings"]),
            draft=DraftNote.from_json(draft) if draft is not None else None,
        )


_JOB_SCALARS = (
    "id",
    "anchor",
    "function",
    "module",
    "framework",
    "decorator",
    "path",
    "line",
    "group",
    "docstring",
)


@dataclass(frozen=True)
class Source:
    """A file the page was rendered from, by SHA-256 (see :class:`~pytest_jobledger.findings.
    Inputs` for what exactly is digested)."""

    path: str
    sha256: str | None

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "sha256": self.sha256}


@dataclass(frozen=True)
class Runbook:
    """The whole page. ``blocking`` (a preview only) lists what keeps it from being published
    and is not shown at a job: status items, orphans, unsupported registrations, duplicates."""

    project: str
    preview: bool
    ledger: Source
    overlay: Source
    group_by: str
    jobs: tuple[JobPage, ...]
    defaults: tuple[FrameworkDefault, ...] = ()
    blocking: tuple[Finding, ...] = field(default=())

    @property
    def unsigned_cells(self) -> int:
        """Policy cells that are not signed and would block publication."""
        return sum(
            1 for job in self.jobs for cell in job.policy if cell.state not in (SIGNED, OPTIONAL)
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "project": self.project,
            "mode": "preview" if self.preview else "publish",
            "ledger": self.ledger.to_json(),
            "overlay": self.overlay.to_json(),
            "group_by": self.group_by,
            "unsigned_cells": self.unsigned_cells,
            "blocking": [finding.to_json() for finding in self.blocking],
            "defaults": [row.to_json() for row in self.defaults],
            "jobs": [job.to_json() for job in self.jobs],
        }

    def dumps(self) -> str:
        """The JSON format's exact text: sorted keys, two-space indent, trailing newline."""
        return json.dumps(self.to_json(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Runbook:
        return cls(
            project=data["project"],
            preview=data["mode"] == "preview",
            ledger=Source(**data["ledger"]),
            overlay=Source(**data["overlay"]),
            group_by=data["group_by"],
            jobs=tuple(JobPage.from_json(row) for row in data["jobs"]),
            defaults=tuple(FrameworkDefault(**row) for row in data["defaults"]),
            blocking=tuple(Finding.from_json(row) for row in data["blocking"]),
        )
