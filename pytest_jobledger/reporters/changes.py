"""``jobledger diff``: what operators will see change, as text, Markdown or JSON.

It renders a :class:`~pytest_jobledger.findings.ChangeReport` and decides nothing. The Markdown
table (also the first table of the Action's job summary) puts each job's ledger fields and
policy cells side by side; every value from the repository goes through :mod:`.markdown`.
"""

from __future__ import annotations

import json

from ..core.paths import Shown
from ..core.text import one_line
from ..findings import ChangeReport, JobChanges
from ..ledger.diff import FieldChange
from .markdown import Budget, code, escape_markdown

FORMATS = ("text", "markdown", "json")

#: The job summary leaves room for the findings; a huge diff says how many rows it left out.
MAX_MARKDOWN_BYTES = 64 * 1024


def headline(report: ChangeReport) -> str:
    counts = {status: 0 for status in ("changed", "added", "removed", "policy")}
    for job in report.jobs:
        counts[job.status] += 1
    policy = sum(1 for job in report.jobs if job.policy)
    entries = "overlay entry" if policy == 1 else "overlay entries"
    return (
        f"{counts['changed']} changed, {counts['added']} added, {counts['removed']} removed; "
        f"{policy} {entries} changed"
    )


def render_text(report: ChangeReport, shown: Shown | None = None) -> str:
    """The report for a terminal: places (``path:line``) from the current folder, with
    ``shown``; Markdown and JSON keep them relative to the root."""
    lines = [f"jobledger diff against {report.base} ({report.commit[:12]}): {headline(report)}"]
    for job in report.jobs:
        lines.append(f"{job.job} ({job.status})")
        lines.extend(f"  ledger: {change.describe()}" for change in job.ledger)
        lines.extend(f"  policy: {change.describe()}" for change in job.policy)
    if report.moved:
        lines.append(f"moved only (not a change): {', '.join(report.moved)}")
    for label, places in (
        ("new unsupported registrations", report.unsupported_added),
        ("unsupported registrations gone", report.unsupported_removed),
    ):
        if places:
            named = places if shown is None else [shown.location(place) for place in places]
            lines.append(f"{label}: {', '.join(named)}")
    return "".join(one_line(line) + "\n" for line in lines)


def render_json(report: ChangeReport) -> str:
    return json.dumps(report.to_json(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def render_markdown(report: ChangeReport, *, limit_bytes: int = MAX_MARKDOWN_BYTES) -> str:
    """The table, never longer than ``limit_bytes``; left-out rows are counted at the end."""
    head = [
        f"### What operators will see change (against {code(report.base)})",
        "",
        escape_markdown(headline(report)),
        "",
    ]
    if not report.jobs:
        head += ["No job's ledger row or overlay entry changed.", ""]
        return "\n".join(head) + _tail(report)
    head += ["| job | change | ledger (from the code) | policy (the overlay) |"]
    head += ["| --- | --- | --- | --- |"]
    text = "\n".join(head) + "\n"
    budget = Budget(limit_bytes, reserve=400, used=text)
    shown = 0
    for job in report.jobs:
        row = _row(job)
        if not budget.take(row):
            break
        text += row
        shown += 1
    if shown < len(report.jobs):
        text += (
            f"\n> {len(report.jobs) - shown} more jobs are not listed here; run "
            f"`jobledger diff --base {escape_markdown(report.base)}` for all of them.\n"
        )
    return text + "\n" + _tail(report)


def _row(job: JobChanges) -> str:
    cells = (code(job.job), job.status, _changes(job.ledger), _changes(job.policy))
    return "| " + " | ".join(cells) + " |\n"


def _changes(changes: tuple[FieldChange, ...]) -> str:
    return "<br>".join(escape_markdown(change.describe(), 300) for change in changes)


def _tail(report: ChangeReport) -> str:
    if not report.moved:
        return ""
    noun = "job only moved" if len(report.moved) == 1 else "jobs only moved"
    return f"{len(report.moved)} {noun} (path or line), which is not a change.\n\n"
