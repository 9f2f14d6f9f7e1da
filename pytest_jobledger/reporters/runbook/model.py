"""The runbook's model: every job with its ledger values, its policy cells and the lane of each.

Built from the gate's result only (the joined rows and their checks) and the configuration; it
never reads a file. Numbers come from the ledger, policy from overlay cells the gate passed,
purpose from ``purpose_accepted``, documented defaults from :mod:`.defaults`, labelled as such.
The Markdown page (:mod:`.page`) is drawn from this model, and ``jobledger render --format json``
prints it (``schemas/runbook.schema.json``), so portals and other tools read the same facts.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...config import Config
from ...findings import Check, Finding, GateResult, JoinedJob, Kind
from ...ledger.model import RESOLVED_FIELDS, JSONValue
from .defaults import DEFAULTS, FrameworkDefault, documented_default

SCHEMA_VERSION = 1

#: How a policy cell stands on the page. Only the first two may appear when publishing.
SIGNED = "signed"
OPTIONAL = "not-signed"
"""An optional cell nobody answered (it blocks nothing, and no value is shown)."""
UNSIGNED = "unsigned"
INVALID = "invalid"
NOT_JUDGED = "not-judged"
"""The overlay could not be read, so the gate could not judge the cell."""
STATES = (SIGNED, OPTIONAL, UNSIGNED, INVALID, NOT_JUDGED)

PURPOSE = "purpose_accepted"
_SLUG_CHARS = 60


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


def anchor_for(job_id: str, *, digits: int = 8) -> str:
    """A stable anchor for a job: readable (lower-case letters and digits of the id) and made
    unique by the id's SHA-256, so ``a.b_c`` and ``a.b.c`` never share one. Only ``[a-z0-9-]``."""
    slug = re.sub(r"[^a-z0-9]+", "-", job_id.lower()).strip("-")[:_SLUG_CHARS].strip("-")
    digest = hashlib.sha256(job_id.encode("utf-8")).hexdigest()[:digits]
    return f"job-{slug}-{digest}" if slug else f"job-{digest}"


def _anchors(ids: Sequence[str]) -> dict[str, str]:
    """Every id's anchor; should two short digests ever meet, those ids take the full digest."""
    anchors = {job_id: anchor_for(job_id) for job_id in ids}
    seen: dict[str, list[str]] = {}
    for job_id, anchor in anchors.items():
        seen.setdefault(anchor, []).append(job_id)
    for clash in (group for group in seen.values() if len(group) > 1):
        for job_id in clash:
            anchors[job_id] = anchor_for(job_id, digits=64)
    return anchors


def build_runbook(
    result: GateResult,
    config: Config,
    *,
    preview: bool = False,
    drafts: Mapping[str, DraftNote] | None = None,
) -> Runbook:
    """The runbook of one gate run. Publishing (``preview=False``) is for a run where nothing
    blocks (see :func:`.publish.blockers`); a publish build that meets a marker raises."""
    if not preview and any(check.finding or check.skipped for check in result.checks):
        raise ValueError("checks fail, so the runbook is not published; see publish.blockers")
    inputs = result.inputs
    anchors = _anchors([row.job.id for row in result.jobs])
    shown = {(check.job, check.cell) for row in result.jobs for check in row.checks}
    jobs = [
        _job_page(row, config, anchors[row.job.id], (drafts or {}) if preview else {})
        for row in result.jobs
    ]
    blocking = tuple(
        check.finding
        for check in result.checks
        if check.finding is not None and (check.job, check.cell) not in shown
    )
    used = {value.default for job in jobs for value in job.ledger if value.default is not None}
    return Runbook(
        project=config.project or config.root.name,
        preview=preview,
        ledger=Source(config.ledger_display, inputs.ledger if inputs else None),
        overlay=Source(config.overlay_display, inputs.overlay if inputs else None),
        group_by=config.runbook_group_by,
        jobs=tuple(sorted(jobs, key=lambda job: job.id)),
        defaults=tuple(row for row in DEFAULTS if row in used),
        blocking=blocking,
    )


def _job_page(
    row: JoinedJob, config: Config, anchor: str, drafts: Mapping[str, DraftNote]
) -> JobPage:
    job = row.job
    ledger = tuple(
        LedgerValue(
            field=name,
            value=getattr(job, name),
            reason=job.unresolved.get(name) if getattr(job, name) is None else None,
            origin=job.defaults.get(name),
            default=(
                documented_default(job.framework, name, job.unresolved.get(name))
                if getattr(job, name) is None
                else None
            ),
        )
        for name in RESOLVED_FIELDS
    )
    option_names = sorted(
        {
            *job.options,
            *(key[len("options.") :] for key in job.unresolved if key.startswith("options.")),
        }
    )
    options = tuple(
        LedgerValue(
            field=name,
            value=job.options.get(name),
            reason=job.unresolved.get(f"options.{name}") if name not in job.options else None,
        )
        for name in option_names
    )
    policy = tuple(_cells(row, config))
    cell_names = {cell.cell for cell in policy}
    findings = tuple(
        check.finding
        for check in row.checks
        if check.finding is not None and check.cell not in cell_names
    )
    purpose = next((cell for cell in policy if cell.cell == PURPOSE), None)
    draft = drafts.get(job.id) if purpose is None or purpose.state != SIGNED else None
    return JobPage(
        id=job.id,
        anchor=anchor,
        function=job.function,
        module=job.module,
        framework=job.framework,
        decorator=job.decorator,
        path=job.path,
        line=job.line,
        group=_group(config.runbook_group_by, row, policy),
        ledger=ledger,
        options=options,
        policy=policy,
        docstring=job.docstring,
        findings=findings,
        draft=draft,
    )


#: How the gate judges an optional cell that holds an answer; any other finding on a key that is
#: not a required cell (a ledger field, a draft, a typo) is about the key, not a policy answer.
_ANSWER_KINDS = (Kind.NOT_YES_NO, Kind.NOT_TEXT)


def _cells(row: JoinedJob, config: Config) -> list[PolicyCell]:
    """The required cells in configured order, then the optional cells someone answered (as the
    gate judged them)."""
    checks: dict[str, Check] = {check.cell: check for check in row.checks}
    optional = [
        check.cell
        for check in row.checks
        if check.cell not in config.required_cells
        and (check.finding is None or check.finding.kind in _ANSWER_KINDS)
    ]
    names = list(dict.fromkeys([*config.required_cells, *optional]))
    cells = []
    for name in names:
        check = checks.get(name)
        written = row.entry.get(name) if row.entry is not None else None
        if check is None:
            where = (
                (config.overlay_display, written.value_line)
                if written
                else (row.job.path, row.job.line)
            )
            cells.append(PolicyCell(name, OPTIONAL, *where))
        elif check.skipped is not None:
            cells.append(PolicyCell(name, NOT_JUDGED, check.path, check.line))
        elif check.finding is not None:
            state = UNSIGNED if check.finding.kind is Kind.UNSIGNED else INVALID
            cells.append(PolicyCell(name, state, check.path, check.line, finding=check.finding))
        else:
            value = written.value if written is not None else None
            if not isinstance(value, str):  # the gate passed it, so it is text; never guess
                raise ValueError(f"{row.job.id}::{name} passed the gate without a text value")
            cells.append(PolicyCell(name, SIGNED, check.path, check.line, value=value))
    return cells


def _group(group_by: str, row: JoinedJob, policy: Sequence[PolicyCell]) -> str | None:
    if group_by == "module":
        return row.job.module
    if group_by == "framework":
        return row.job.framework
    if group_by == "owner":
        owner = next((cell for cell in policy if cell.cell == "paging_owner"), None)
        return owner.value if owner is not None and owner.state == SIGNED else None
    return row.job.queue
