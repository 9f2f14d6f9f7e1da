"""The runbook as Markdown: a header with the inputs' digests, an index grouped as configured,
one section per job with a stable anchor, and the documented defaults the page used.

Drawn from :class:`~.model.Runbook` only. Every piece of text that came from the repository goes
through :mod:`pytest_jobledger.reporters.markdown`; the only HTML written is each job's empty
``<a id="job-...">`` anchor (ids of ``[a-z0-9-]`` only), which GitHub, MkDocs and MyST all keep.
No clock time is written, so two renders of the same inputs are byte-identical.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence

from ...findings import Finding
from ..markdown import code, escape_line, escape_markdown, fenced, paragraphs
from .defaults import FrameworkDefault
from .model import (
    INVALID,
    NOT_JUDGED,
    OPTIONAL,
    PURPOSE,
    SIGNED,
    UNSIGNED,
    JobPage,
    LedgerValue,
    PolicyCell,
    Runbook,
)

LABELS = {
    "name": "registered name",
    "queue": "queue",
    "max_retries": "max retries",
    "retry_delay_s": "retry delay",
    "soft_time_limit_s": "soft time limit",
    "time_limit_s": "time limit",
    "idempotent": "idempotent",
    "poison_policy": "poison policy",
    "paging_owner": "paging owner",
    "runtime_class": "runtime class",
    "purpose_accepted": "accepted purpose",
}
SECONDS = ("retry_delay_s", "soft_time_limit_s", "time_limit_s")
GROUP_TITLES = {
    "queue": ("Queue", "queue not stated in the source"),
    "module": ("Module", "no module"),
    "owner": ("Paging owner", "paging owner not signed"),
    "framework": ("Framework", "no framework"),
}
INDEX_CELLS = ("idempotent", "paging_owner", "runtime_class")

#: Where a ``path:line`` of the repository is browsed (a docs site's ``repo_url``), or ``None``.
#: The returned URL must be percent-encoded already: it is written as a link's destination.
Link = Callable[[str, int], "str | None"]

#: Markers for a cell with no signed answer; only ``OPTIONAL`` can appear on a published page.
MARKERS = {
    UNSIGNED: "**[UNSIGNED]**",
    INVALID: "**[INVALID]**",
    NOT_JUDGED: "**[NOT JUDGED]**",
    OPTIONAL: "_not signed (optional)_",
}


def render(book: Runbook, *, link: Link | None = None) -> str:
    """The page's exact text, ending with one newline. With ``link`` (a docs site that knows its
    repository) every code and signed location links to its line; without, they are text."""
    blocks: list[str] = []
    if book.preview:
        blocks.append(_banner(book))
    blocks.extend(_header(book))
    blocks.extend(_index(book))
    blocks.append("## Jobs")
    for job in book.jobs:
        blocks.extend(_section(job, book.preview, link))
    if book.defaults:
        blocks.extend(_defaults(book.defaults))
    if book.blocking:
        blocks.append("## Blocking findings")
        blocks.append("\n".join(f"- {_finding_line(finding)}" for finding in book.blocking))
    return "\n\n".join(blocks) + "\n"


def _banner(book: Runbook) -> str:
    count = book.unsigned_cells
    noun = "policy cell is" if count == 1 else "policy cells are"
    lines = [
        f"> **Preview: {count} {noun} unsigned; not for publication.**",
        ">",
        f"> A cell without a signed answer is marked {MARKERS[UNSIGNED]}, {MARKERS[INVALID]} or "
        f"{MARKERS[NOT_JUDGED]}; `jobledger render` refuses to publish until every check passes.",
    ]
    if book.blocking:
        other = len(book.blocking)
        lines.append(
            f"> {other} other finding{'s' if other != 1 else ''} also block publication (see "
            '"Blocking findings" at the end).'
        )
    return "\n".join(lines)


def _header(book: Runbook) -> list[str]:
    def source(kind: str, path: str, sha256: str | None) -> str:
        digest = f"sha256 {code(sha256)}" if sha256 else "no file"
        return f"the {kind} {code(path)} ({digest})"

    return [
        f"# Job runbook: {escape_line(book.project)}",
        "Rendered by `jobledger render` from "
        f"{source('ledger', book.ledger.path, book.ledger.sha256)} and "
        f"{source('overlay', book.overlay.path, book.overlay.sha256)}. Do not edit it by hand: "
        "numbers come from the code, policy from cells a person signed.",
        "Every value names its lane: **code** (read from the registration, `path:line`), "
        "**config** (the app's configuration, such as Celery's `task_routes`, `path:line`), "
        "**signed** (a person's answer in the overlay, `path:line`) or **default** (the "
        "framework's documented default, which the app's configuration may override).",
    ]


def _index(book: Runbook) -> list[str]:
    title, missing = GROUP_TITLES[book.group_by]
    blocks = [f"## Jobs by {title.lower()}"]
    if not book.jobs:
        return [*blocks, "No jobs are registered."]
    groups: dict[str | None, list[JobPage]] = {}
    for job in book.jobs:
        groups.setdefault(job.group, []).append(job)
    for group in sorted(groups, key=lambda name: (name is None, name or "")):
        heading = f"{title} {code(group, in_table=False)}" if group is not None else missing
        blocks += [f"### {heading}", index_table(groups[group])]
    return blocks


def index_table(jobs: Sequence[JobPage], *, links: bool = True) -> str:
    """The index's table for ``jobs``: each job links to its section (``links``) and shows the
    numbers that page an operator first, and the signed cells or their markers."""
    rows = [
        "| job | queue | retries | soft / hard time limit | idempotent | paging owner "
        "| runtime class |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for job in jobs:
        rows.append(index_row(job, links=links))
    return "\n".join(rows)


def index_row(job: JobPage, *, links: bool = True) -> str:
    """One job's row of :func:`index_table`."""
    values = {value.field: value for value in job.ledger}
    limits = (
        f"{_value(values['soft_time_limit_s'], short=True)} / "
        f"{_value(values['time_limit_s'], short=True)}"
    )
    cells = [
        f"[{code(job.id)}](#{job.anchor})" if links else code(job.id),
        _value(values["queue"], short=True),
        _value(values["max_retries"], short=True),
        limits,
        *(_cell_value(job.cell(name)) for name in INDEX_CELLS),
    ]
    return "| " + " | ".join(cells) + " |"


def _where(path: str, line: int, link: Link | None) -> str:
    """``path:line`` as a code span, linked to its line when the site knows the repository."""
    shown = code(f"{path}:{line}")
    url = link(path, line) if link is not None else None
    return f"[{shown}]({url})" if url else shown


def _section(job: JobPage, preview: bool, link: Link | None = None) -> Iterator[str]:
    yield f'<a id="{job.anchor}"></a>\n\n### {code(job.id, in_table=False)}'
    yield (
        f"Defined at {_where(job.path, job.line, link)} by {code(job.decorator)} "
        f"({escape_line(job.framework)}); "
        f"function {code(job.function)} in module {code(job.module)}."
    )
    rows = ["| | value | lane |", "| --- | --- | --- |"]
    for value in job.ledger:
        lane = _ledger_lane(value, job, link)
        rows.append(f"| {LABELS[value.field]} | {_value(value)} | {lane} |")
    for value in job.options:
        rows.append(
            f"| option {code(value.field)} | {_value(value)} | {_ledger_lane(value, job, link)} |"
        )
    for cell in job.policy:
        if cell.cell != PURPOSE:
            label = LABELS.get(cell.cell) or code(cell.cell)
            rows.append(f"| {label} | {_cell_value(cell)} | {_cell_lane(cell, link)} |")
    yield "\n".join(rows)
    yield from _purpose(job)
    if preview:
        findings = [cell.finding for cell in job.policy if cell.finding is not None]
        findings += job.findings
        if findings:
            yield "**Findings for this job** (they block publication):"
            yield "\n".join(f"- {_finding_line(finding)}" for finding in findings)
    if job.docstring is not None and job.docstring.strip():
        yield (
            f"**From the source** (the docstring at {code(job.location)}, shown as written; "
            "it is not a signed promise):"
        )
        yield fenced(job.docstring)
    else:
        yield f"**From the source:** the job has no docstring ({code(job.location)})."


def _purpose(job: JobPage) -> Iterator[str]:
    cell = job.cell(PURPOSE)
    if cell is not None and cell.state == SIGNED and cell.value is not None:
        yield f"**Accepted purpose** (signed at {code(cell.location)}):"
        yield paragraphs(cell.value, quote=True)
    elif cell is not None:
        yield f"**Accepted purpose:** {MARKERS[cell.state]} ({code(cell.location)})."
    else:  # not a required cell here, and nobody wrote one
        yield f"**Accepted purpose:** {MARKERS[OPTIONAL]}."
    if job.draft is not None:
        freshness = (
            "stale: the docstring changed since it was drafted"
            if job.draft.stale
            else "drafted from the current docstring"
        )
        yield (
            f"> **Unverified draft, not a promise.** Written by the program "
            f"{code(job.draft.program)} ({freshness}); nobody has signed it, and it is not the "
            "accepted purpose until its owner writes it as `purpose_accepted`.\n>\n"
            + paragraphs(job.draft.text, quote=True)
        )


def _defaults(rows: Sequence[FrameworkDefault]) -> list[str]:
    table = [
        "| framework | field | documented default | setting | documentation |",
        "| --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        table.append(
            f"| {row.label} | {LABELS[row.field]} | {_number(row.field, row.value)} | "
            f"{code(row.setting)} | <{row.url}> |"
        )
    return [
        "## Framework defaults shown on this page",
        "A registration that does not set a field gets its framework's default, unless the "
        "app's configuration (or a worker option) says otherwise; the ledger cannot prove which, "
        "so these are labelled **default** wherever they appear.",
        "\n".join(table),
    ]


def _number(field: str, value: object) -> str:
    if value is None:
        return "no limit"
    if isinstance(value, str):  # a documented default queue
        return code(value)
    text = str(value) if isinstance(value, int) else json.dumps(value)
    return f"{text} s" if field in SECONDS else text


def _value(value: LedgerValue, *, short: bool = False) -> str:
    if value.value is not None:
        if isinstance(value.value, str) and value.field in ("queue", "name"):
            return code(value.value)
        if isinstance(value.value, (int, float)) and not isinstance(value.value, bool):
            return _number(value.field, value.value)
        return code(json.dumps(value.value, sort_keys=True, ensure_ascii=False))
    if value.default is not None:
        shown = _number(value.field, value.default.value)
        if short:
            return f"{shown} ({value.default.label} default)"
        return f"{shown} ({value.default.label}'s documented default; not set at registration)"
    if short:
        return "not stated"
    return f"not stated: {escape_markdown(value.reason or 'the source does not prove it')}"


def _ledger_lane(value: LedgerValue, job: JobPage, link: Link | None = None) -> str:
    if value.lane == "default" and value.default is not None:
        return f"**default**: [{value.default.label} documentation]({value.default.url})"
    if value.where is not None:
        return f"**{value.lane}**: {escape_markdown(value.where)}"
    return f"**code** {_where(job.path, job.line, link)}"


def _cell_value(cell: PolicyCell | None) -> str:
    if cell is None:
        return MARKERS[OPTIONAL]
    if cell.state == SIGNED and cell.value is not None:
        return escape_markdown(cell.value)
    if cell.state == INVALID and cell.finding is not None:
        return f"{MARKERS[INVALID]} {code(cell.finding.kind.value)}"
    return MARKERS[cell.state]


def _cell_lane(cell: PolicyCell, link: Link | None = None) -> str:
    if cell.state == SIGNED:
        return f"**signed** {_where(cell.path, cell.line, link)}"
    if cell.state == OPTIONAL:
        return "nobody signed it"
    return f"fix at {code(cell.location)}"


def _finding_line(finding: Finding) -> str:
    name = f"{finding.job}::{finding.cell}"
    return (
        f"{code(finding.location, in_table=False)} {code(name, in_table=False)} "
        f"\\[{escape_line(finding.kind.value)}\\] {escape_line(finding.message)}"
    )
