"""The runbook as Markdown: a header with the inputs' digests, an index grouped as configured,
one section per job with a stable anchor, and the documented defaults the page used.

Drawn from :class:`~.model.Runbook` only. Every piece of text that came from the repository goes
through :mod:`pytest_jobledger.reporters.markdown`; the only HTML written is each job's empty
``<a id="job-...">`` anchor (ids of ``[a-z0-9-]`` only), which GitHub, MkDocs and MyST all keep.
No clock time is written, so two renders of the same inputs are byte-identical.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from ...findings import Finding
from ..markdown import code, escape_line, escape_markdown, fenced, paragraphs
from . import view
from .defaults import FrameworkDefault
from .model import INVALID, NOT_JUDGED, OPTIONAL, PURPOSE, SIGNED, UNSIGNED, JobPage, Runbook
from .view import LABELS, SECONDS

__all__ = ["GROUP_TITLES", "LABELS", "SECONDS", "Link", "index_row", "index_table", "render"]

GROUP_TITLES = {
    "queue": ("Queue", "queue not stated in the source"),
    "module": ("Module", "no module"),
    "owner": ("Paging owner", "paging owner not signed"),
    "framework": ("Framework", "no framework"),
}

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


def render(book: Runbook, *, link: Link | None = None, warned: Sequence[str] | None = None) -> str:
    """The page's exact text, ending with one newline. With ``link`` (a docs site that knows its
    repository) every code and signed location links to its line; without, they are text.

    The first screen is the index (who is paged, what is safe, the poison policy); each job is a
    second-level section, so a site's table of contents lists the jobs; the digests of the
    inputs are in the footer."""
    blocks: list[str] = []
    if warned:
        lines = [f"> **{escape_line(view.warned(len(warned)))}**", ">"]
        lines += [f"> - {escape_line(line)}" for line in warned]
        blocks.append("\n".join(lines))
    elif book.preview:
        blocks.append(_banner(book))
    blocks.append(f"# Job runbook: {escape_line(book.project)}")
    blocks.append(spans(view.opening()))
    blocks.extend(_index(book))
    unique = view.unique_functions(book.jobs)
    for job in book.jobs:
        blocks.extend(_section(job, view.heading(job, unique), book.preview, link))
    if book.defaults:
        blocks.extend(_defaults(book.defaults))
    if book.blocking:
        blocks.append("## Blocking findings")
        blocks.append("\n".join(f"- {_finding_line(finding)}" for finding in book.blocking))
    blocks.append(f"## {view.FOOTER_TITLE}")
    ledger = (book.ledger.path, book.ledger.sha256)
    blocks.append(spans(view.sources(ledger, (book.overlay.path, book.overlay.sha256))))
    return "\n\n".join(blocks) + "\n"


_MARKER_WORDS = frozenset(view.MARKER_WORDS.values())


def spans(cell: Sequence[view.Span], link: Link | None = None) -> str:
    """One cell's or line's words as inert Markdown (the same words Sphinx shows)."""
    out = []
    for span in cell:
        shown = code(span.text) if span.style == "code" else escape_markdown(span.text)
        if span.text in _MARKER_WORDS:  # our own words, written as the other pages write them
            shown = span.text
        if span.style == "text":  # the spaces between spans are words too
            lead = span.text[: len(span.text) - len(span.text.lstrip(" "))]
            trail = span.text[len(span.text.rstrip(" ")) :]
            shown = f"{lead}{shown}{trail}" if shown else lead
        if span.style == "strong":
            shown = f"**{shown}**"
        elif span.style == "emphasis":
            shown = f"_{shown}_"
        url = None
        if span.anchor is not None:
            url = f"#{span.anchor}"
        elif span.url is not None:
            url = span.url
        elif span.where is not None and link is not None:
            url = link(*span.where)
        out.append(f"[{shown}]({url})" if url else shown)
    return "".join(out)


def table(made: view.Table, link: Link | None = None) -> str:
    """A :class:`~.view.Table` as a Markdown table."""
    rows = [
        "| " + " | ".join(made.header) + " |",
        "| " + " | ".join("---" for _ in made.header) + " |",
    ]
    rows += ["| " + " | ".join(spans(cell, link) for cell in row) + " |" for row in made.rows]
    return "\n".join(rows)


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


def _index(book: Runbook) -> list[str]:
    title, missing = GROUP_TITLES[book.group_by]
    blocks = [f"## Jobs by {title.lower()}"]
    if not book.jobs:
        return [*blocks, "No jobs are registered."]
    groups: dict[str | None, list[JobPage]] = {}
    for job in book.jobs:
        groups.setdefault(job.group, []).append(job)
    unique = view.unique_functions(book.jobs)
    for group in sorted(groups, key=lambda name: (name is None, name or "")):
        heading = f"{title} {code(group, in_table=False)}" if group is not None else missing
        made = view.index_table(groups[group], queue=book.group_by != "queue", unique=unique)
        blocks += [f"### {heading}", table(made)]
    return blocks


def index_table(jobs: Sequence[JobPage], *, links: bool = True) -> str:
    """The index's table for ``jobs`` (with the queue column, as the job summary shows it):
    each job links to its section (``links``)."""
    return table(view.index_table(jobs, links=links))


def index_row(job: JobPage, *, links: bool = True) -> str:
    """One job's row of :func:`index_table`."""
    return "| " + " | ".join(spans(cell) for cell in view.index_row(job, links=links)) + " |"


def _section(job: JobPage, heading: str, preview: bool, link: Link | None = None) -> Iterator[str]:
    yield f'<a id="{job.anchor}"></a>\n\n## {code(heading, in_table=False)}'
    yield spans(view.intro(job), link)
    yield table(view.job_table(job), link)
    note = view.footnote(job)
    if note is not None:
        yield spans(note)
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
    return [f"## {view.DEFAULTS_TITLE}", spans(view.defaults_note()), table(view.defaults(rows))]


def _finding_line(finding: Finding) -> str:
    name = f"{finding.job}::{finding.cell}"
    return (
        f"{code(finding.location, in_table=False)} {code(name, in_table=False)} "
        f"\\[{escape_line(finding.kind.value)}\\] {escape_line(finding.message)}"
    )
