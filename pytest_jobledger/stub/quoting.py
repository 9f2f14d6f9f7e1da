"""``jobledger stub --quote-yes-no``: write unquoted ``yes``/``no`` cell values quoted.

YAML 1.2 (ruamel.yaml, the gate) reads a plain ``yes`` as the string ``"yes"``; YAML 1.1 readers
(PyYAML, most linters and editors' older plugins) read it as ``True``. Quoting makes every reader
agree. Only those scalars' bytes change: each plain ``yes``/``no`` that is a cell's value under
``jobs:`` is replaced by the same word in double quotes, in place, and the result is parsed again
and compared event by event (the only difference allowed is those scalars' quoting).

``--quote-yes-no`` does only that (:func:`quote_only`): it adds no entry and fills no cell. A
stub that also filled missing cells added ``paging_owner: unknown`` beside a misspelt
``paging_onwer``, which a person then had to untangle.
"""

from __future__ import annotations

from collections.abc import Sequence

from ruamel.yaml.events import (
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
)

from ..core.errors import OverlayError
from .layout import read_events, skip_node
from .lines import Lines
from .proof import StubBug, signature
from .refusals import gate_reads_it, refuse_oversized
from .result import Requoted, StubResult

#: The plain words YAML 1.1 resolves to booleans that an overlay cell means as yes/no answers.
YES_NO = frozenset({"yes", "Yes", "YES", "no", "No", "NO"})


def quote_only(text: str | None, path: str, max_bytes: int) -> StubResult:
    """``jobledger stub --quote-yes-no``: the overlay with its plain yes/no answers quoted, and
    nothing else changed (no entry added, no cell filled, nothing moved)."""
    if text is None:
        raise OverlayError(
            "there is no overlay yet, so there is nothing to quote; `jobledger stub` creates it. "
            "Nothing was written",
            path=path,
        )
    after, requoted = quote_yes_no(text, path)
    if after != text:
        refuse_oversized(after, path, max_bytes)
        gate_reads_it(after, path)
    return StubResult(text=after, original=text, requoted=requoted)


def quote_yes_no(text: str, path: str) -> tuple[str, tuple[Requoted, ...]]:
    """``text`` with every plain ``yes``/``no`` cell value quoted, and what was quoted."""
    events = read_events(text, path)
    found = list(_plain_answers(events))
    if not found:
        return text, ()
    lines = Lines.of(text)
    pieces: list[str] = []
    at = 0
    report: list[Requoted] = []
    for index, job_id, cell in found:
        event = events[index]
        assert isinstance(event, ScalarEvent)
        start, end = event.start_mark.index, event.end_mark.index
        if text[start:end] != event.value:  # never guess where a scalar's bytes are
            raise StubBug(
                f"internal error, nothing was written (cannot find the bytes of {cell} of "
                f"{job_id}); please report this with the overlay",
                path=path,
            )
        pieces.append(text[at:start])
        pieces.append(f'"{event.value}"')
        at = end
        report.append(Requoted(job_id, cell, str(event.value), lines.line_of(start) + 1))
    pieces.append(text[at:])
    after = "".join(pieces)
    _prove(events, read_events(after, path), {index for index, _, _ in found}, path)
    return after, tuple(report)


def _plain_answers(events: Sequence[Event]) -> list[tuple[int, str, str]]:
    """(event index, job id, cell) of each plain yes/no value of a cell of an entry of ``jobs``."""
    starts = [i for i, event in enumerate(events) if isinstance(event, DocumentStartEvent)]
    if not starts or not isinstance(events[starts[0] + 1], MappingStartEvent):
        return []
    i = starts[0] + 2
    while not isinstance(events[i], MappingEndEvent):
        key, value, value_end = events[i], events[i + 1], skip_node(events, i + 1)
        if isinstance(key, ScalarEvent) and key.value == "jobs":
            return _answers_in_jobs(events, i + 1) if isinstance(value, MappingStartEvent) else []
        i = value_end
    return []


def _answers_in_jobs(events: Sequence[Event], start: int) -> list[tuple[int, str, str]]:
    found: list[tuple[int, str, str]] = []
    k = start + 1
    while not isinstance(events[k], MappingEndEvent):
        entry_key, entry = events[k], events[k + 1]
        end = skip_node(events, k + 1)
        if isinstance(entry_key, ScalarEvent) and isinstance(entry, MappingStartEvent):
            c = k + 2
            while not isinstance(events[c], MappingEndEvent):
                cell, value = events[c], events[c + 1]
                if isinstance(cell, ScalarEvent) and _plain_yes_no(value):
                    found.append((c + 1, str(entry_key.value), str(cell.value)))
                c = skip_node(events, skip_node(events, c))
        k = end
    return found


def _plain_yes_no(event: Event) -> bool:
    return (
        isinstance(event, ScalarEvent)
        and event.style is None
        and event.tag is None
        and event.anchor is None
        and event.value in YES_NO
    )


def _prove(before: Sequence[Event], after: Sequence[Event], quoted: set[int], path: str) -> None:
    """The new text means the old one, except that the ``quoted`` scalars are now quoted."""
    same = len(before) == len(after)
    for index, (old, new) in enumerate(zip(before, after, strict=False)):
        if not same:
            break
        if index in quoted:
            same = (
                isinstance(new, ScalarEvent)
                and new.value == getattr(old, "value", None)
                and new.style == '"'
            )
        else:
            same = signature(old) == signature(new)
    if not same:
        raise StubBug(
            "internal error, nothing was written (quoting yes/no changed more than those "
            "values); please report this with the overlay",
            path=path,
        )
