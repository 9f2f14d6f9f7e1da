"""The runbook's model built from one gate run: the joined rows and their checks, nothing else.

It never reads a file. Numbers come from the ledger, policy from overlay cells the gate passed,
purpose from ``purpose_accepted``, documented defaults from :mod:`.defaults`, labelled as such.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from typing import TypeGuard

from ...core.redact import redact
from ...findings import STATUS_JOB, Check, Finding, GateResult, JoinedJob, Kind
from ...ledger.model import RESOLVED_FIELDS
from ...ledger.reruns import delivery_fact
from ...project import Config
from .defaults import DEFAULTS, documented_default
from .model import (
    INVALID,
    NOT_JUDGED,
    OPTIONAL,
    PURPOSE,
    SIGNED,
    UNSIGNED,
    DraftNote,
    JobPage,
    LedgerValue,
    PolicyCell,
    Runbook,
    Source,
)

_SLUG_CHARS = 60


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
    blocks (:func:`blockers`, the one refusal rule); a publish build that meets a blocker raises.

    A warning (a review to do after a change) or a skipped status item (no base to compare with)
    does not block, and is not on the page either: the page says what was signed, and it must
    not depend on the base or the day a run compared with.
    """
    if not preview and blockers(result):
        raise ValueError("checks fail, so the runbook is not published; see blockers")
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
        if _blocks(check.finding) and (check.job, check.cell) not in shown
    )
    used = {value.default for job in jobs for value in job.ledger if value.default is not None}
    return Runbook(
        project=config.runbook.title or config.root.name,
        preview=preview,
        ledger=Source(config.ledger_display, inputs.ledger if inputs else None),
        overlay=Source(config.overlay_display, inputs.overlay if inputs else None),
        group_by=config.runbook.group_by,
        jobs=tuple(sorted(jobs, key=lambda job: job.id)),
        defaults=tuple(row for row in DEFAULTS if row in used),
        blocking=blocking,
    )


def blockers(result: GateResult) -> tuple[Check, ...]:
    """Every check that keeps the runbook from being published: every one that fails the gate,
    and every cell that could not be judged (unsigned work too).

    A baselined failure (a notice) blocks too: the page waits until the baseline is empty. A
    warning (a review to do) does not fail the gate, and a skipped status item had nothing to
    judge (no base to review against; the runbook's own freshness while other checks fail), so
    neither blocks.
    """
    return tuple(
        check
        for check in result.checks
        if not check.passed
        or (check.skipped is not None and check.job != STATUS_JOB)
        # A baselined failure passes the gate, but a page is never published over known debt.
        or (check.finding is not None and check.finding.baselined)
    )


def _blocks(finding: Finding | None) -> TypeGuard[Finding]:
    """A finding the page shows: one that fails the gate or is known debt, never a warning."""
    return finding is not None and (finding.level.fails or finding.baselined)


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
        if _blocks(check.finding) and check.cell not in cell_names
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
        group=_group(config.runbook.group_by, row, policy),
        ledger=ledger,
        options=options,
        policy=policy,
        docstring=redact(job.docstring, job.location) if job.docstring is not None else None,
        findings=findings,
        draft=draft,
        delivery=delivery_fact(job),
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
        if check.cell not in config.cells.required
        and (check.finding is None or check.finding.kind in _ANSWER_KINDS)
        # a cell someone wrote: a cross-lane item (the job's rerun) is not a policy answer
        and row.entry is not None
        and row.entry.get(check.cell) is not None
    ]
    names = list(dict.fromkeys([*config.cells.required, *optional]))
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
            answer = redact(_answer(value), f"{check.path}:{check.line}")
            cells.append(PolicyCell(name, SIGNED, check.path, check.line, value=answer))
    return cells


def _answer(value: object) -> str:
    """A signed cell's answer as the page writes it. The gate passed it, so it is text, a whole
    number (``bulk_retry_limit: 100``, written as its digits) or a day (``reviewed_on``)."""
    return value if isinstance(value, str) else str(value)


def _group(group_by: str, row: JoinedJob, policy: Sequence[PolicyCell]) -> str | None:
    if group_by == "module":
        return row.job.module
    if group_by == "framework":
        return row.job.framework
    if group_by == "owner":
        owner = next((cell for cell in policy if cell.cell == "paging_owner"), None)
        return owner.value if owner is not None and owner.state == SIGNED else None
    return row.job.queue
