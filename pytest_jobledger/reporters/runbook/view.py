"""What the runbook says, once, for every builder: the words of each table cell and line.

The Markdown page (:mod:`.page`, also what the MkDocs plugin converts) and the Sphinx directive
(:mod:`pytest_jobledger.docs.sphinx`) draw the same :class:`Span` sequences, each in its own
markup, so the two sites never word the same cell differently. Repository text stays a plain
``Span``; each renderer makes it inert in its own way.

A job's table puts what on-call needs first (who is paged, whether a retry is safe, what happens
to a poison message, the limits and retries), then the rest. A field the framework has no
concept of (the ledger's reason says "<framework> has no ...") is left out of the table and named
in one footnote under it, never shown as a row that only says "not stated".
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

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
)


@dataclass(frozen=True)
class Span:
    """A run of words with one style. ``anchor``: a link to a job's section; ``url``: a link to a
    documentation page; ``where``: a repository line (linked when the site knows the
    repository). ``text`` may be repository text: every renderer escapes it."""

    text: str
    style: str = "text"  # "text", "code", "strong" or "emphasis"
    anchor: str | None = None
    url: str | None = None
    where: tuple[str, int] | None = None


Cell = tuple[Span, ...]


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]


def text(value: str) -> Span:
    return Span(value)


def plain(cell: Cell) -> str:
    """A cell's words without markup: what a reader sees (the builders' test compares these)."""
    return "".join(span.text for span in cell)


LABELS = {
    "name": "registered name",
    "queue": "queue",
    "max_retries": "max retries",
    "retry_delay_s": "retry delay",
    "soft_time_limit_s": "soft time limit",
    "time_limit_s": "time limit",
    "idempotent": "safe to retry (idempotent)",
    "poison_policy": "poison message",
    "paging_owner": "paging owner",
    "runtime_class": "runtime class",
    "purpose_accepted": "accepted purpose",
}
SECONDS = ("retry_delay_s", "soft_time_limit_s", "time_limit_s")

#: The order of a job's table: the operator's facts first. The one-line delivery fact (at least
#: once or at most once, from the rerun facts) follows ``idempotent``, the promise it tests.
OPERATOR_CELLS = ("paging_owner", "idempotent", "poison_policy")
LIMIT_FIELDS = ("max_retries", "retry_delay_s", "soft_time_limit_s", "time_limit_s")
LATER_CELLS = ("runtime_class",)
LATER_FIELDS = ("queue", "name")

#: Words for a cell with no signed answer; only ``OPTIONAL`` can appear on a published page.
MARKER_WORDS = {
    UNSIGNED: "[UNSIGNED]",
    INVALID: "[INVALID]",
    NOT_JUDGED: "[NOT JUDGED]",
    OPTIONAL: "not signed (optional)",
}

#: A ledger reason that says the framework has no such setting at all ("rq has no soft time
#: limit", "Django Tasks has no retries in the framework"): the row is left out, and footnoted.
_NO_CONCEPT = re.compile(r"^[A-Za-z][\w ]{0,30}? has no ")


def not_a_concept(value: LedgerValue) -> bool:
    return (
        value.value is None
        and value.default is None
        and bool(value.reason and _NO_CONCEPT.match(value.reason))
    )


# -- the index --------------------------------------------------------------------------------

INDEX_HEADER = ("job", "paging owner", "safe to retry", "poison message", "retries", "time limit")


def index_table(
    jobs: Sequence[JobPage],
    *,
    links: bool = True,
    queue: bool = True,
    unique: frozenset[str] = frozenset(),
) -> Table:
    """The index: who is paged and what is safe per job, then retries and the time limit. A
    table grouped by queue leaves the queue column out; a job whose function name is in
    ``unique`` (no other job of the page has it) is named by its function alone, so the column
    stays narrow (its heading below gives the whole id)."""
    header = INDEX_HEADER + (("queue",) if queue else ())
    return Table(
        header,
        tuple(
            index_row(job, links=links, queue=queue, short=job.function in unique) for job in jobs
        ),
    )


def unique_functions(jobs: Sequence[JobPage]) -> frozenset[str]:
    """The function names only one job of ``jobs`` has."""
    names = [job.function for job in jobs]
    return frozenset(name for name in names if names.count(name) == 1)


def index_row(
    job: JobPage, *, links: bool = True, queue: bool = True, short: bool = False
) -> tuple[Cell, ...]:
    values = {value.field: value for value in job.ledger}
    name = job.function if short else job.id
    cells: list[Cell] = [
        (Span(name, "code", anchor=job.anchor if links else None),),
        cell_value(job.cell("paging_owner")),
        cell_value(job.cell("idempotent")),
        cell_value(job.cell("poison_policy")),
        (text(value_words(values["max_retries"], short=True)),),
        (text(time_limit(values["soft_time_limit_s"], values["time_limit_s"])),),
    ]
    if queue:
        cells.append(ledger_value(values["queue"], short=True))
    return tuple(cells)


def time_limit(soft: LedgerValue, hard: LedgerValue) -> str:
    """The hard limit, with the soft one beside it when the code sets one."""
    shown = value_words(hard, short=True)
    if soft.value is not None:
        shown += f", soft {value_words(soft, short=True)}"
    return shown


# -- one job ----------------------------------------------------------------------------------


def heading(job: JobPage, unique: frozenset[str]) -> str:
    """A job's heading, also its entry in a site's table of contents: the function's name when
    no other job has it (the sidebar stays narrow), else the whole id."""
    return job.function if job.function in unique else job.id


def intro(job: JobPage) -> Cell:
    """The line under a job's heading: its whole id, where it is defined and by what."""
    return (
        text("Job "),
        Span(job.id, "code"),
        text(", defined at "),
        Span(job.location, "code", where=(job.path, job.line)),
        text(" by "),
        Span(job.decorator, "code"),
        text(f" ({job.framework}); function "),
        Span(job.function, "code"),
        text(" in module "),
        Span(job.module, "code"),
        text("."),
    )


JOB_HEADER = ("", "value", "lane")


def job_table(job: JobPage) -> Table:
    """A job's facts, the operator's first; fields the framework has no concept of left out."""
    values = {value.field: value for value in job.ledger if not not_a_concept(value)}
    rows: list[tuple[Cell, ...]] = []
    named = {*OPERATOR_CELLS, *LATER_CELLS, PURPOSE}
    for name in OPERATOR_CELLS:
        rows.extend(_cell_row(job, name))
        if name == "idempotent" and job.delivery:
            rows.append(_delivery_row(job))
    rows.extend(_ledger_row(job, values[name]) for name in LIMIT_FIELDS if name in values)
    for name in LATER_CELLS:
        rows.extend(_cell_row(job, name))
    rows.extend(_ledger_row(job, values[name]) for name in LATER_FIELDS if name in values)
    for value in job.options:
        label = (text("option "), Span(value.field, "code"))
        rows.append((label, ledger_value(value), ledger_lane(value, job)))
    for cell in job.policy:
        if cell.cell not in named:
            rows.append(_policy_row(cell))
    return Table(JOB_HEADER, tuple(rows))


def footnote(job: JobPage) -> Cell | None:
    """What the table leaves out because the framework has no such thing, or ``None``."""
    reasons = [value.reason for value in job.ledger if not_a_concept(value) and value.reason]
    if not reasons:
        return None
    return (
        Span("Not in the table", "emphasis"),
        text(" (the framework has no such setting): " + "; ".join(reasons) + "."),
    )


def _cell_row(job: JobPage, name: str) -> list[tuple[Cell, ...]]:
    cell = job.cell(name)
    return [_policy_row(cell)] if cell is not None else []


def _policy_row(cell: PolicyCell) -> tuple[Cell, ...]:
    label = LABELS.get(cell.cell)
    return (
        (text(label),) if label else (Span(cell.cell, "code"),),
        cell_value(cell),
        cell_lane(cell),
    )


def _delivery_row(job: JobPage) -> tuple[Cell, ...]:
    """The code's rerun fact (``at-least-once: redelivered on worker loss``), from the
    registration: what a signed ``idempotent`` answer is checked against."""
    lane = (
        Span("code", "strong"),
        text(", "),
        Span(f"line {job.line}", where=(job.path, job.line)),
    )
    return ((text("delivery"),), (text(job.delivery),), lane)


def _ledger_row(job: JobPage, value: LedgerValue) -> tuple[Cell, ...]:
    return ((text(LABELS[value.field]),), ledger_value(value), ledger_lane(value, job))


# -- values and lanes ---------------------------------------------------------------------------


def number(field: str, value: object) -> str:
    if value is None:
        return "no limit"
    shown = str(value) if isinstance(value, int) else json.dumps(value)
    return f"{shown} s" if field in SECONDS else shown


def value_words(value: LedgerValue, *, short: bool = False) -> str:
    """A ledger value as words (a queue or name is shown as code by :func:`ledger_value`)."""
    if value.value is not None:
        if isinstance(value.value, str):
            return value.value
        if isinstance(value.value, (int, float)) and not isinstance(value.value, bool):
            return number(value.field, value.value)
        return json.dumps(value.value, sort_keys=True, ensure_ascii=False)
    if value.default is not None:
        shown = value.default.value
        words = shown if isinstance(shown, str) else number(value.field, shown)
        if short:  # the job's own table names the framework and links its documentation
            return f"{words} (default)"
        return f"{words} ({value.default.label}'s documented default; not set at registration)"
    if short:
        return "not stated"
    return f"not stated: {value.reason or 'the source does not prove it'}"


def ledger_value(value: LedgerValue, *, short: bool = False) -> Cell:
    words = value_words(value, short=short)
    literal = value.value is not None and not (
        isinstance(value.value, (int, float)) and not isinstance(value.value, bool)
    )
    return (Span(words, "code" if literal else "text"),)


def ledger_lane(value: LedgerValue, job: JobPage) -> Cell:
    if value.lane == "default" and value.default is not None:
        return (
            Span("default", "strong"),
            text(": "),
            Span(f"{value.default.label} documentation", url=value.default.url),
        )
    if value.where is not None:
        return (Span(value.lane, "strong"), text(f": {value.where}"))
    return (
        Span("code", "strong"),
        text(", "),
        Span(f"line {job.line}", where=(job.path, job.line)),
    )


def cell_value(cell: PolicyCell | None) -> Cell:
    if cell is None:
        return (Span(MARKER_WORDS[OPTIONAL], "emphasis"),)
    if cell.state == SIGNED and cell.value is not None:
        return (text(cell.value),)
    if cell.state == INVALID and cell.finding is not None:
        return (
            Span(MARKER_WORDS[INVALID], "strong"),
            text(" "),
            Span(cell.finding.kind.value, "code"),
        )
    style = "emphasis" if cell.state == OPTIONAL else "strong"
    return (Span(MARKER_WORDS.get(cell.state, cell.state), style),)


def cell_lane(cell: PolicyCell) -> Cell:
    if cell.state == SIGNED:
        return (
            Span("signed", "strong"),
            text(", "),
            Span(f"overlay line {cell.line}", where=(cell.path, cell.line)),
        )
    if cell.state == OPTIONAL:
        return (text("nobody signed it"),)
    return (text("fix at "), Span(cell.location, "code"))


# -- the page's opening and its footer ------------------------------------------------------------

OPENING = (
    "Per job: who is paged, whether a retry is safe, what happens to a poison message, and its "
    "limits. Every value names its lane: "
)


def opening() -> Cell:
    """The paragraph under the title: what the page is for, and how to read a lane."""
    return (
        text(OPENING),
        Span("code", "strong"),
        text(" (read from the registration), "),
        Span("config", "strong"),
        text(" (the app's configuration, such as Celery's task_routes), "),
        Span("signed", "strong"),
        text(" (a person's answer in the overlay) or "),
        Span("default", "strong"),
        text(" (the framework's documented default, which the app's configuration may override)."),
    )


FOOTER_TITLE = "About this page"


def sources(ledger: tuple[str, str | None], overlay: tuple[str, str | None]) -> Cell:
    """The footer: the files the page was rendered from, by digest."""

    def source(kind: str, path: str, sha256: str | None) -> Cell:
        digest = (
            (text(" (sha256 "), Span(sha256, "code"), text(")"))
            if sha256
            else (text(" (no file)"),)
        )
        return (text(f"the {kind} "), Span(path, "code"), *digest)

    return (
        text("Rendered by "),
        Span("jobledger render", "code"),
        text(" from "),
        *source("ledger", *ledger),
        text(" and "),
        *source("overlay", *overlay),
        text(
            ". Do not edit it by hand: numbers come from the code, policy from cells a person "
            "signed."
        ),
    )


DEFAULTS_TITLE = "Framework defaults shown on this page"


def defaults_note() -> Cell:
    return (
        text(
            "A registration that does not set a field gets its framework's default, unless the "
            "app's configuration (or a worker option) says otherwise; the ledger cannot prove "
            "which, so these are labelled "
        ),
        Span("default", "strong"),
        text(" wherever they appear."),
    )


def defaults(rows: Sequence[FrameworkDefault]) -> Table:
    """The documented defaults the page used; each setting links to its documentation."""
    return Table(
        ("framework", "field", "documented default", "setting (its documentation)"),
        tuple(
            (
                (text(row.label),),
                (text(LABELS[row.field]),),
                (Span(row.value, "code"),)
                if isinstance(row.value, str)
                else (text(number(row.field, row.value)),),
                (Span(row.setting, "code", url=row.url),),
            )
            for row in rows
        ),
    )


def warned(count: int) -> str:
    """The first line of the banner of a page a docs build published while checks fail."""
    noun = "check fails" if count == 1 else "checks fail"
    return (
        f'Published with unsigned work: {count} {noun} (docs_unsigned = "warn"); each cell '
        "without a signed answer is marked below. Sign them in the overlay:"
    )
