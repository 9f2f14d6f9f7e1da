"""The Markdown job summary (``$GITHUB_STEP_SUMMARY``): totals, then one table per finding kind.

GitHub refuses a step summary over 1 MiB, so the text is built within a byte budget well below it
and ends with a note saying how many rows were left out and where the full list is. Every value
that came from a user's files is escaped so that a job id or YAML value cannot inject Markdown or
HTML into the page.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

from ..core.outside import append_runner_file
from ..core.text import plural
from ..findings import ChangeReport, Finding, Kind, Level
from ..reporters.changes import render_markdown
from ..reporters.markdown import Budget, code, escape_markdown, size_of

#: Far below GitHub's 1 MiB per step, leaving room for whatever else the step writes.
MAX_SUMMARY_BYTES = 256 * 1024
GITHUB_SUMMARY_LIMIT = 1024 * 1024


def counts(findings: Iterable[Finding]) -> dict[str, int]:
    """The numbers the action exposes as outputs (and the summary shows first): failing
    findings only; warnings and notices are counted by :func:`others`."""
    distinct = {finding for finding in findings if finding.level.fails}
    return {
        "failing-cells": len(distinct),
        "unsigned-jobs": len({f.job for f in distinct if f.kind is Kind.UNSIGNED}),
        "orphans": sum(1 for f in distinct if f.kind is Kind.ORPHAN),
    }


def others(findings: Iterable[Finding]) -> dict[Level, int]:
    """How many distinct findings of each level that does not fail."""
    distinct = set(findings)
    return {
        level: sum(1 for f in distinct if f.level is level)
        for level in Level
        if not level.fails and any(f.level is level for f in distinct)
    }


def _heading(kind: Kind, rows: list[Finding]) -> str:
    return f"{kind.heading} ({len(rows)})"


#: The summary's three groups, in the order a reviewer needs them: what blocks the merge, what
#: warns, and the known (baselined) notices, collapsed.
GROUPS = (
    (Level.ERROR, "Blocking the merge"),
    (Level.WARNING, "Warnings (not blocking)"),
    (Level.NOTICE, "Known, not blocking (baselined notices)"),
)


def render_summary(
    findings: Iterable[Finding],
    *,
    locate: Callable[[Finding], str] | None = None,
    limit_bytes: int = MAX_SUMMARY_BYTES,
    see: str = "the pytest output or `jobledger check`",
    incomplete: str | None = None,
    changes: ChangeReport | None = None,
    no_changes: str | None = None,
) -> str:
    """The whole summary as Markdown, never longer than ``limit_bytes`` UTF-8 bytes.

    ``incomplete`` says why the gate did not finish (a usage error, an interrupt): then the
    findings shown are those seen so far, and a clean run is never claimed. ``changes`` (what
    operators will see change since the base) comes first, within a quarter of the budget;
    ``no_changes`` says once why there is no such table.
    """
    top = ""
    if changes is not None:
        top = render_markdown(changes, limit_bytes=limit_bytes // 4)
    elif no_changes is not None:
        top = f"> No diff against the base: {escape_markdown(no_changes)}\n\n"
    rest = _findings_summary(
        findings, locate=locate, limit_bytes=limit_bytes - size_of(top), see=see,
        incomplete=incomplete,
    )  # fmt: skip
    title = "## Job ledger\n\n"
    return title + top + rest.removeprefix(title)


def _findings_summary(
    findings: Iterable[Finding],
    *,
    locate: Callable[[Finding], str] | None,
    limit_bytes: int,
    see: str,
    incomplete: str | None,
) -> str:
    where = locate or (lambda finding: finding.location)
    distinct = sorted(
        set(findings), key=lambda f: (f.path, f.line, f.job, f.cell, f.kind.value, f.message)
    )
    numbers = counts(distinct)
    head = ["## Job ledger", ""]
    if incomplete is not None:
        head += [
            f"> **The gate did not complete** ({escape_markdown(incomplete)}); see {see}. "
            "The findings below are only those reported before it stopped.",
            "",
        ]
    if not distinct:
        if incomplete is None:
            head += ["All policy cells are signed: no findings.", ""]
        return "\n".join(head)
    per_kind = Counter(f.kind for f in distinct if f.level.fails)
    known = Counter(f.kind for f in distinct if not f.level.fails)
    extra = "".join(f" · {plural(n, level.value)}" for level, n in others(distinct).items())
    head += [
        f"**{numbers['failing-cells']} failing** · "
        f"{plural(numbers['unsigned-jobs'], 'unsigned job')} · "
        f"{plural(numbers['orphans'], 'orphan')}{extra}",
        "",
        "| kind | blocking | not blocking |",
        "| --- | ---: | ---: |",
        *(
            f"| {kind.heading} | {per_kind[kind]} | {known[kind]} |"
            for kind in Kind
            if per_kind[kind] or known[kind]
        ),
        "",
    ]
    parts = ["\n".join(head) + "\n"]
    budget = Budget(limit_bytes, reserve=400, used=parts[0] + "\n")  # room for the note
    shown = 0
    truncated = False
    for level, title in GROUPS:
        group = [f for f in distinct if f.level is level]
        if not group or truncated:
            continue
        collapsed = level is Level.NOTICE
        opening = (
            f"<details><summary>{title}: {len(group)}</summary>\n\n"
            if collapsed
            else f"### {title}: {len(group)}\n\n"
        )
        if not budget.take(opening):
            truncated = True
            break
        parts.append(opening)
        for kind in Kind:
            rows = [f for f in group if f.kind is kind]
            if not rows or truncated:
                continue
            table = [f"#### {_heading(kind, rows)}", "", "| where | job | cell | fix |"]
            table.append("| --- | --- | --- | --- |")
            block = "\n".join(table) + "\n"
            if not budget.take(block):
                truncated = True
                break
            parts.append(block)
            for finding in rows:
                cells = (
                    code(where(finding)),
                    code(finding.job) if finding.job else "",
                    code(finding.cell) if finding.cell else "",
                    escape_markdown(finding.message),
                )
                row = "| " + " | ".join(cells) + " |\n"
                if not budget.take(row):
                    truncated = True
                    break
                parts.append(row)
                shown += 1
            parts.append("\n")
            budget.add("\n")
        if collapsed:
            # Taken from the reserve: an opened <details> is always closed.
            parts.append("</details>\n\n")
    if truncated:
        rest = len(distinct) - shown
        parts.append(
            f"> **Truncated:** {rest} of {len(distinct)} findings are not listed here, to stay "
            f"under GitHub's 1 MiB summary limit; see {see} for all of them.\n"
        )
    return "".join(parts)


def append_summary(
    path: Path,
    findings: Iterable[Finding],
    *,
    locate: Callable[[Finding], str] | None = None,
    see: str = "the pytest output or `jobledger check`",
    incomplete: str | None = None,
    changes: ChangeReport | None = None,
    no_changes: str | None = None,
    extra: Callable[[int], str] | None = None,
) -> None:
    """Append the summary to ``$GITHUB_STEP_SUMMARY``, within what the step has left of 1 MiB.

    ``extra`` renders a further section within the bytes the summary left (the runbook's rows).
    """
    try:
        existing = path.stat().st_size
    except OSError:
        existing = 0
    budget = min(MAX_SUMMARY_BYTES, GITHUB_SUMMARY_LIMIT - existing - 64 * 1024)
    if budget < 4 * 1024:
        return
    text = render_summary(
        findings,
        locate=locate,
        limit_bytes=budget,
        see=see,
        incomplete=incomplete,
        changes=changes,
        no_changes=no_changes,
    )
    if extra is not None:
        text += extra(budget - size_of(text))
    append_runner_file(path, text)
