"""Where things are in an overlay's text: the ``jobs:`` mapping, each entry's lines and comments.

The stub edits the overlay as text so that every byte a person wrote stays. ruamel.yaml's event
stream says where each job key and each piece of content is (character offsets, so CRLF, a BOM or
a Unicode line separator cannot shift a line count); this module turns those offsets into physical
lines and decides which comment lines belong to which entry:

- a full-line comment directly above a key (no blank line between) and indented no deeper than the
  key is that entry's *head*; a new entry is never put between a head and its key;
- comment lines after an entry's last content that are indented deeper than its key are its *tail*.

Everything else between entries (blank lines, loose comments) belongs to no entry and stays put.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ruamel.yaml.events import (
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
)

from ..core.errors import OverlayError
from ..core.readers import Problem, Unreadable, parse_yaml
from .lines import Lines
from .style import cell_step, guess_indent, guess_quote, key_column, skip_node

__all__ = [
    "EntrySpan",
    "Layout",
    "has_span",
    "key_column",
    "locate",
    "read_events",
    "remember_events",
    "skip_node",
]


@dataclass(frozen=True)
class EntrySpan:
    """One job under ``jobs:``: its key's exact span and the lines that belong to it."""

    id: str
    key_start: int
    key_end: int
    key_style: str | None
    key_line: int
    column: int
    head_line: int
    tail_line: int
    cells: dict[str, str | None] | None
    """Scalar cells of a block or flow mapping value (``None`` if the value is not a mapping)."""
    has_other_content: bool
    """The value holds something other than scalar cells (nested collections, aliases)."""
    open_ended: bool = False
    """The entry ends with a ``|+``/``>+`` block scalar: a blank line right after it would
    become part of its text, so nothing blank may be added there."""
    keys: tuple[str, ...] = ()
    """Every scalar key of the entry's mapping, whatever its value (what a fill must not add)."""
    value_kind: str = "other"
    """``"block"`` (a block mapping), ``"empty"`` (``job:`` with nothing after it, not an
    explicit ``? key``) or ``"other"`` (a flow mapping, a scalar, a list): only the first two
    can take more cells as whole new lines."""
    cell_column: int | None = None
    """The column of the first cell of a block mapping value (where a filled cell goes)."""


@dataclass(frozen=True)
class Layout:
    """An overlay's text and what the stub needs to know to add to it without touching a byte.

    ``jobs_kind`` is ``"block"`` (entries can be added), ``"empty"`` (``jobs:`` with nothing after
    it), ``"missing"`` (no ``jobs`` key; it can be appended), or ``"other"`` (a flow mapping, a
    scalar, a list...: nothing can be added without rewriting a line). ``top_kind`` is ``"none"``
    for a file with no document, ``"block"`` for a block mapping, ``"other"`` for anything else.
    """

    lines: Lines
    top_kind: str
    top_column: int
    top_end_line: int
    jobs_kind: str
    jobs_line: int
    jobs_column: int
    entries: tuple[EntrySpan, ...]
    jobs_end_line: int
    indent: int
    quote: str

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(entry.id for entry in self.entries)

    @property
    def is_sorted(self) -> bool:
        return list(self.ids) == sorted(self.ids)

    @property
    def blank_separated(self) -> bool:
        """Whether the file puts a blank line between entries (then new entries get one too)."""
        for before, after in zip(self.entries, self.entries[1:], strict=False):
            if any(self.lines.is_blank(i) for i in range(before.tail_line + 1, after.head_line)):
                return True
        return False

    @property
    def entry_column(self) -> int:
        if self.entries:
            return self.entries[0].column
        return self.jobs_column + self.indent

    cell_step: int | None = None
    """How far a cell sits right of its job key in an existing block entry, if there is one."""

    @property
    def cell_indent(self) -> int:
        return self.cell_step if self.cell_step is not None else self.indent


def parse_error(problem: Problem, path: str) -> OverlayError:
    """A located message for text the strict reader refuses (the file is then left untouched)."""
    what = "not valid YAML" if problem.reason in ("syntax", "duplicate") else "unreadable"
    return OverlayError(
        f"the overlay is {what} ({problem.detail}); fix it by hand, then run the stub "
        "again; nothing was written",
        path=path,
        line=problem.line,
    )


#: The events of the last few texts the strict reader accepted, keyed by the whole text. The
#: stub asks for one text's events up to four times (the gate's refusal, the layout, the proof's
#: before and after), and one ruamel pass over a 3,000-entry overlay takes seconds.
_EVENTS: dict[str, tuple[Event, ...]] = {}
_REMEMBERED = 4


def remember_events(text: str, events: Sequence[Event]) -> None:
    """Keep the events of a strict pass over ``text`` that succeeded (the gate's own reading)."""
    _EVENTS.pop(text, None)
    _EVENTS[text] = tuple(events)
    while len(_EVENTS) > _REMEMBERED:
        del _EVENTS[next(iter(_EVENTS))]


def read_events(text: str, path: str) -> list[Event]:
    """The event stream of the strict reader's one pass (duplicate keys, ruamel warnings,
    Python's limits: each a located refusal), or raise a located :class:`OverlayError`."""
    known = _EVENTS.get(text)
    if known is not None:
        return list(known)
    events: list[Event] = []
    try:
        parse_yaml(text, events)
    except Unreadable as error:
        raise parse_error(error.problem, path) from None
    remember_events(text, events)
    return events


def has_span(event: Event) -> bool:
    return bool(event.end_mark.index > event.start_mark.index)


def refuse_bare_carriage_returns(text: str, path: str) -> None:
    """A line that ends in a lone CR (old Mac line endings) is a line to YAML but not to the
    stub, which splices whole lines: refuse it rather than guess where new lines go."""
    at = text.replace("\r\n", "\n\n").find("\r")
    if at < 0:
        return
    line = text[:at].replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
    raise OverlayError(
        "the overlay has a line that ends in a lone carriage return (CR, old Mac line "
        "endings); the stub only edits files whose lines end in LF or CRLF: save it with LF line "
        "endings, then run the stub again; nothing was written",
        path=path,
        line=line,
    )


def locate(text: str, path: str) -> Layout:
    """Read the overlay's structure; raise a located :class:`OverlayError` if it does not parse."""
    refuse_bare_carriage_returns(text, path)
    events = read_events(text, path)
    return _Locator(Lines.of(text), events).layout()


class _Locator:
    def __init__(self, lines: Lines, events: Sequence[Event]) -> None:
        self.lines = lines
        self.events = events

    def content_line(self, end_index: int) -> int:
        """The physical line of the last character before ``end_index``."""
        return self.lines.line_of(max(end_index - 1, 0))

    def layout(self) -> Layout:
        events = self.events
        lines = self.lines
        documents = [i for i, event in enumerate(events) if isinstance(event, DocumentStartEvent)]
        base = Layout(
            lines=lines,
            top_kind="none",
            top_column=0,
            top_end_line=len(lines.lines) - 1,
            jobs_kind="missing",
            jobs_line=0,
            jobs_column=0,
            entries=(),
            jobs_end_line=0,
            indent=guess_indent(events, lines),
            quote=guess_quote(events),
        )
        if not documents:
            return base
        root_at = documents[0] + 1
        root = events[root_at]
        if not isinstance(root, MappingStartEvent) or root.flow_style:
            return replace(base, top_kind="other", jobs_kind="other")
        return self._top_mapping(root_at, base)

    def _top_mapping(self, at: int, base: Layout) -> Layout:
        events = self.events
        top_column = self.lines.column_of(events[at + 1].start_mark.index)
        i = at + 1
        last_end = events[at].end_mark.index
        jobs: tuple[int, int] | None = None
        while not isinstance(events[i], MappingEndEvent):
            key = events[i]
            value_end = skip_node(events, i + 1)
            if isinstance(key, ScalarEvent) and key.value == "jobs" and jobs is None:
                jobs = (i, value_end)
            for event in events[i:value_end]:
                if has_span(event):
                    last_end = max(last_end, event.end_mark.index)
            i = value_end
        top_end = self._tail(self.content_line(last_end), top_column)
        base = replace(base, top_kind="block", top_column=top_column, top_end_line=top_end)
        if jobs is None:
            return base
        key_at, value_end = jobs
        key_event = events[key_at]
        jobs_line = self.lines.line_of(key_event.start_mark.index)
        base = replace(base, jobs_line=jobs_line, jobs_column=top_column)
        value = events[key_at + 1]
        if isinstance(value, ScalarEvent) and value.value == "" and not has_span(value):
            end = self._tail(jobs_line, top_column)
            return replace(base, jobs_kind="empty", jobs_end_line=end)
        if not isinstance(value, MappingStartEvent) or value.flow_style:
            entries: tuple[EntrySpan, ...] = ()
            if isinstance(value, MappingStartEvent):
                entries = self._entries(key_at + 1, key_event.end_mark.index)
            return replace(base, jobs_kind="other", entries=entries)
        entries = self._entries(key_at + 1, key_event.end_mark.index)
        return replace(
            base,
            jobs_kind="block",
            entries=entries,
            jobs_end_line=entries[-1].tail_line if entries else jobs_line,
            cell_step=cell_step(events, key_at + 1, value_end, self.lines),
        )

    def _entries(self, start: int, boundary: int) -> tuple[EntrySpan, ...]:
        """Each key of the mapping that starts at event ``start`` (a MappingStartEvent)."""
        events = self.events
        spans: list[tuple[int, int, int]] = []  # key event, value end, content end index
        i = start + 1
        opening = events[start]
        previous_end = max(boundary, opening.end_mark.index if has_span(opening) else 0)
        ends: list[int] = []
        while not isinstance(events[i], MappingEndEvent):
            value_end = skip_node(events, i + 1)
            content_end = max(
                (event.end_mark.index for event in events[i:value_end] if has_span(event)),
                default=events[i].end_mark.index,
            )
            spans.append((i, value_end, content_end))
            ends.append(content_end)
            i = value_end
        result: list[EntrySpan] = []
        for n, (key_at, value_end, content_end) in enumerate(spans):
            key = events[key_at]
            key_line = self.lines.line_of(key.start_mark.index)
            column = self._key_column(key.start_mark.index)
            floor = self.content_line(previous_end)
            head = key_line
            while head - 1 > floor:
                col = self.lines.comment_column(head - 1)
                if col is None or col > column:
                    break
                head -= 1
            content_line = self.content_line(content_end)
            next_key_line = (
                self.lines.line_of(events[spans[n + 1][0]].start_mark.index)
                if n + 1 < len(spans)
                else None
            )
            tail = self._tail(content_line, column, next_key_line)
            cells, other = _cells(events[key_at + 1 : value_end])
            value_kind, keys, cell_column = self._value_shape(key_at, value_end)
            result.append(
                EntrySpan(
                    id=str(key.value) if isinstance(key, ScalarEvent) else "",
                    key_start=key.start_mark.index,
                    key_end=key.end_mark.index,
                    key_style=key.style if isinstance(key, ScalarEvent) else None,
                    key_line=key_line,
                    column=column,
                    head_line=head,
                    tail_line=tail,
                    cells=cells,
                    has_other_content=other or not isinstance(key, ScalarEvent),
                    open_ended=tail == content_line and self._keeps_blank_lines(key_at, value_end),
                    keys=keys,
                    value_kind=value_kind,
                    cell_column=cell_column,
                )
            )
            previous_end = content_end
        return tuple(result)

    def _key_column(self, index: int) -> int:
        return key_column(self.lines, index)

    def _value_shape(self, key_at: int, value_end: int) -> tuple[str, tuple[str, ...], int | None]:
        """Whether the entry's value can take new cell lines, its keys, and its cells' column."""
        events = self.events
        value = events[key_at + 1]
        if isinstance(value, ScalarEvent):
            explicit = self.lines.lines[self.lines.line_of(events[key_at].start_mark.index)]
            empty = value.value == "" and value.tag is None and not has_span(value)
            kind = (
                "empty" if empty and not explicit.lstrip(" \t\ufeff").startswith("?") else "other"
            )
            return kind, (), None
        if not isinstance(value, MappingStartEvent):
            return "other", (), None
        keys: list[str] = []
        i = key_at + 2
        while i < value_end - 1:
            key = events[i]
            if isinstance(key, ScalarEvent):
                keys.append(str(key.value))
            i = skip_node(events, skip_node(events, i))
        if value.flow_style or len(events) <= key_at + 2 or i == key_at + 2:
            return "other", tuple(keys), None
        return "block", tuple(keys), key_column(self.lines, events[key_at + 2].start_mark.index)

    def _keeps_blank_lines(self, start: int, stop: int) -> bool:
        spanned = [event for event in self.events[start:stop] if has_span(event)]
        last = max(spanned, key=lambda event: event.end_mark.index, default=None)
        if not isinstance(last, ScalarEvent) or last.style not in ("|", ">"):
            return False
        text = self.lines.text
        header_end = text.find("\n", last.start_mark.index)
        header = text[last.start_mark.index : header_end if header_end >= 0 else len(text)]
        return "+" in header.split("#", 1)[0]

    def _tail(self, content_line: int, column: int, stop: int | None = None) -> int:
        """The last line of a block: its content plus the comments indented deeper than it."""
        tail = content_line
        limit = len(self.lines.lines) if stop is None else stop
        for line in range(content_line + 1, limit):
            if self.lines.is_blank(line):
                continue
            col = self.lines.comment_column(line)
            if col is None or col <= column:
                break
            tail = line
        return tail


def _cells(value: Sequence[Event]) -> tuple[dict[str, str | None] | None, bool]:
    """The scalar cells of an entry's value, and whether it holds anything else."""
    if not value:
        return None, True
    first = value[0]
    if isinstance(first, ScalarEvent) and first.value == "" and first.tag is None:
        return {}, False  # ``job:`` with nothing: an entry with no cells yet
    if not isinstance(first, MappingStartEvent):
        return None, True
    cells: dict[str, str | None] = {}
    other = False
    i = 1
    while not isinstance(value[i], MappingEndEvent):
        key = value[i]
        end = skip_node(value, i + 1)
        item = value[i + 1]
        if isinstance(key, ScalarEvent) and isinstance(item, ScalarEvent) and end == i + 2:
            plain_null = item.style is None and item.value in ("", "~", "null", "Null", "NULL")
            cells[str(key.value)] = None if plain_null and item.tag is None else str(item.value)
        else:
            other = True
        i = end
    return cells, other
