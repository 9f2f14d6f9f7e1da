"""The overlay's own style, read from its events: the quote character it uses, its indentation
step, how far cells sit right of their key, and where a key starts (so what the stub adds looks
like what a person wrote)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ruamel.yaml.events import (
    AliasEvent,
    CollectionStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)

from .lines import Lines


def skip_node(events: Sequence[Event], i: int) -> int:
    """The index just past the node that starts at event ``i``."""
    event = events[i]
    if isinstance(event, (ScalarEvent, AliasEvent)):
        return i + 1
    depth = 0
    while True:
        event = events[i]
        if isinstance(event, (MappingStartEvent, SequenceStartEvent)):
            depth += 1
        elif isinstance(event, (MappingEndEvent, SequenceEndEvent)):
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1


def key_column(lines: Lines, index: int) -> int:
    """Where a mapping key at ``index`` starts: the key, or the ``?`` of an explicit key."""
    line = lines.line_of(index)
    column = lines.column_of(index)
    prefix = lines.lines[line][: index - lines.starts[line]] if lines.lines else ""
    if prefix.strip() == "?":
        return column - (len(prefix) - prefix.index("?"))
    return column


def guess_quote(events: Sequence[Event]) -> str:
    """The quote character the file uses most (double quotes when it uses none)."""
    single = sum(1 for e in events if isinstance(e, ScalarEvent) and e.style == "'")
    double = sum(1 for e in events if isinstance(e, ScalarEvent) and e.style == '"')
    return "'" if single > double else '"'


def guess_indent(events: Sequence[Event], lines: Lines) -> int:
    """The indentation step of the first block mapping nested in another (2 when there is none)."""
    frames: list[list[Any]] = []  # [is_mapping, expecting_key, first_key_column]
    for event in events:
        is_node = isinstance(event, (ScalarEvent, AliasEvent, CollectionStartEvent))
        if is_node and frames and frames[-1][0] and frames[-1][1] and frames[-1][2] is None:
            column = key_column(lines, event.start_mark.index)
            frames[-1][2] = column
            outer = [frame[2] for frame in frames[:-1] if frame[0] and frame[2] is not None]
            if outer and column > outer[-1]:
                return int(column - outer[-1])
        if isinstance(event, CollectionStartEvent):
            frames.append([isinstance(event, MappingStartEvent), True, None])
            continue
        if isinstance(event, (MappingEndEvent, SequenceEndEvent)) and frames:
            frames.pop()
        node_done = isinstance(event, (ScalarEvent, AliasEvent, MappingEndEvent, SequenceEndEvent))
        if node_done and frames and frames[-1][0]:
            frames[-1][1] = not frames[-1][1]
    return 2


def cell_step(events: Sequence[Event], start: int, stop: int, lines: Lines) -> int | None:
    i = start + 1
    while i < stop and not isinstance(events[i], MappingEndEvent):
        key = events[i]
        value = events[i + 1]
        if isinstance(value, MappingStartEvent) and not value.flow_style:
            first_cell = events[i + 2]
            if not isinstance(first_cell, MappingEndEvent):
                key_col = key_column(lines, key.start_mark.index)
                cell_col = key_column(lines, first_cell.start_mark.index)
                if cell_col > key_col:
                    return cell_col - key_col
        i = skip_node(events, i + 1)
    return None
