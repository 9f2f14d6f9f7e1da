"""The job summary's runbook section: the index rows of the jobs a pull request changed.

So a reviewer sees, in the pull request, what operators will read. "Changed" means: the file
that registers the job changed, or (on a pull request, where the diff has line numbers) a line of
the job's overlay entry changed. Rows are the runbook's own (:mod:`..reporters.runbook.page`),
marked as a preview while the gate has failing checks, and the section stays within the bytes
the summary has left.
"""

from __future__ import annotations

import bisect
from collections.abc import Collection
from pathlib import Path

from ..findings import GateResult, JoinedJob, Kind
from ..project import Config
from ..reporters.markdown import Budget
from ..reporters.runbook import blockers, build_runbook
from ..reporters.runbook.page import index_row, index_table

#: Room kept for the closing note when rows are left out.
_RESERVE = 300
#: Past any overlay's last line (an overlay is at most a few MiB).
_END = 1 << 31


def changed_jobs(
    result: GateResult,
    config: Config,
    changed: Collection[Path],
    overlay_lines: Collection[int] | None,
) -> list[str]:
    """Ids of the jobs whose registering file is in ``changed`` (real paths) or whose overlay
    entry holds one of ``overlay_lines`` (``None``: the overlay's changed lines are unknown)."""
    files = {Path(path).resolve() for path in changed}
    spans = _entry_spans(result) if overlay_lines else {}
    lines = set(overlay_lines or ())

    def touched(row: JoinedJob) -> bool:
        if (config.root / row.job.path).resolve() in files:
            return True
        span = spans.get(row.job.id)
        # Each changed line is tested against the span (``in`` on a range is arithmetic), never
        # the span walked: the file's last entry runs to the end of the file.
        return span is not None and any(line in span for line in lines)

    return sorted(row.job.id for row in result.jobs if touched(row))


def _entry_spans(result: GateResult) -> dict[str, range]:
    """Each entry's lines: from its key to the line before the next entry, an orphan's included
    (the file's last entry runs to the end)."""
    entries = {row.entry.job: row.entry.line for row in result.jobs if row.entry is not None}
    orphans = [
        check.line
        for check in result.checks
        if check.finding is not None and check.finding.kind is Kind.ORPHAN
    ]
    starts = sorted({*entries.values(), *orphans})
    spans: dict[str, range] = {}
    for job, line in entries.items():
        after = bisect.bisect_right(starts, line)
        spans[job] = range(line, starts[after] if after < len(starts) else _END)
    return spans


def runbook_section(
    result: GateResult, config: Config, ids: Collection[str], limit_bytes: int
) -> str:
    """The section's Markdown for ``ids`` (empty when there are none or no room)."""
    if not ids:
        return ""
    blocked = len(blockers(result))
    book = build_runbook(result, config, preview=bool(blocked))
    jobs = [job for job in book.jobs if job.id in set(ids)]
    noun = "job" if len(jobs) == 1 else "jobs"
    head = [
        "### Runbook: the jobs this pull request changed",
        "",
        f"The runbook's index rows for the {len(jobs)} {noun} whose registration or overlay entry "
        "changed, as operators will read them (`jobledger render` writes the whole page).",
        "",
    ]
    if blocked:
        head += [
            f"> **Preview:** {blocked} check{'s' if blocked != 1 else ''} of the gate "
            f"{'fail' if blocked != 1 else 'fails'}, so the runbook cannot be published yet; "
            "cells without a signed answer are marked.",
            "",
        ]
    # Each line of ``head`` ends with a newline, the last one blank: without that blank line the
    # table would be read as part of the paragraph or quote above it, and never render.
    text = "".join(line + "\n" for line in head) + index_table([]) + "\n"
    budget = Budget(limit_bytes, reserve=_RESERVE, used=text)
    if not budget.room:
        return ""
    parts = [text]
    shown = 0
    for job in jobs:
        row = index_row(job, links=False) + "\n"
        if not budget.take(row):
            break
        parts.append(row)
        shown += 1
    if shown < len(jobs):
        parts.append(
            f"\n> **Truncated:** {len(jobs) - shown} of {len(jobs)} rows are not listed, to "
            "stay within GitHub's summary limit; `jobledger render --preview -o -` shows them.\n"
        )
    return "".join(parts) + "\n"
