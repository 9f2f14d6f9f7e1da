"""The stub's proof: the text it is about to write means the old overlay plus the intended change.

ruamel.yaml's event stream is compared before and after, cut in two: everything outside ``jobs:``
must be the same events, and each old entry must be the same events (under its new id, for a moved
one). Anything else is a bug of the stub, reported as :class:`StubBug`, and nothing is written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ruamel.yaml.events import (
    CollectionStartEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
)

from ..core.errors import JobledgerError, OverlayError
from ..ledger.model import Job
from .layout import has_span, read_events, skip_node

#: A scalar event reduced to what decides whether two parses mean the same document.
Signature = tuple[Any, ...]


class StubBug(JobledgerError):
    """The stub built text that does not mean the input plus the new entries; nothing is written."""


def signature(event: Event) -> Signature:
    """What an event means, without where it is: equal signatures mean the same YAML."""
    return (
        type(event).__name__,
        getattr(event, "value", None),
        getattr(event, "anchor", None),
        str(getattr(event, "tag", None)),
        getattr(event, "implicit", None),
        getattr(event, "style", None) if isinstance(event, ScalarEvent) else None,
        getattr(event, "flow_style", None) if isinstance(event, CollectionStartEvent) else None,
    )


#: Stands for the ``jobs`` key and its value in :func:`split_jobs`'s outside part.
JOBS_MARKER: Signature = ("jobs",)


def split_jobs(
    events: Sequence[Event],
) -> tuple[list[Signature], list[tuple[str, list[Signature]]], bool]:
    """A document's meaning cut in two: everything outside ``jobs`` and each entry in order.

    The third value says whether a ``jobs`` mapping (or an empty ``jobs:``) was found; comparing
    these parts before and after the stub proves it changed nothing but what it meant to.
    """
    sigs = [signature(event) for event in events]
    starts = [i for i, event in enumerate(events) if isinstance(event, DocumentStartEvent)]
    if not starts or not isinstance(events[starts[0] + 1], MappingStartEvent):
        return sigs, [], False
    i = starts[0] + 2
    while not isinstance(events[i], MappingEndEvent):
        value_end = skip_node(events, i + 1)
        key, value = events[i], events[i + 1]
        if isinstance(key, ScalarEvent) and key.value == "jobs":
            if isinstance(value, ScalarEvent) and value.value == "" and not has_span(value):
                return [*sigs[:i], JOBS_MARKER, *sigs[value_end:]], [], True
            if not isinstance(value, MappingStartEvent):
                return sigs, [], False
            entries: list[tuple[str, list[Signature]]] = []
            k = i + 2
            while k < value_end - 1:
                end = skip_node(events, k + 1)
                entry_key = events[k]
                name = str(entry_key.value) if isinstance(entry_key, ScalarEvent) else ""
                entries.append((name, sigs[k:end]))
                k = end
            return [*sigs[:i], JOBS_MARKER, *sigs[value_end:]], entries, True
        i = value_end
    return sigs, [], False


def verify(
    source: str,
    after: str,
    path: str,
    added: Sequence[Job],
    moves: Mapping[str, str],
    replaced: set[str],
    filled: Mapping[str, Sequence[str]] | None = None,
    placeholder: str = "",
) -> None:
    """Parse the new text and prove it means the old one plus the intended change, or raise.

    ``filled`` names, by the id each entry ends with, the cells added at its end (each holding
    ``placeholder``): they are taken off the new entry before it is compared with the old one.

    A file without a final newline may also be compared as if it had one: lines added after its
    last line must end that line, which adds a newline to a block scalar that ends the file (``|``
    keeps one), the same change any editor makes on save.
    """
    references = [source]
    if source and not source.endswith("\n"):
        references.append(source + ("\r\n" if "\r\n" in source else "\n"))
    problems: list[StubBug] = []
    for before in references:
        try:
            _compare(before, after, path, added, moves, replaced, filled or {}, placeholder)
        except StubBug as bug:
            problems.append(bug)
        else:
            return
    raise problems[0]


def _compare(
    before: str,
    after: str,
    path: str,
    added: Sequence[Job],
    moves: Mapping[str, str],
    replaced: set[str],
    filled: Mapping[str, Sequence[str]],
    placeholder: str,
) -> None:

    def fail(why: str) -> StubBug:
        return StubBug(
            f"internal error, nothing was written ({why}); please report this with the overlay",
            path=path,
        )

    try:
        new_events = read_events(after, path)
    except OverlayError as error:
        raise fail(f"the new text does not parse: {error.message}") from None
    old_outside, old_entries, old_found = split_jobs(read_events(before, path))
    new_outside, new_entries, _ = split_jobs(new_events)
    if not old_found:
        new_outside = [sig for sig in new_outside if sig != JOBS_MARKER]
    if old_outside != new_outside:
        raise fail("text outside `jobs:` changed")
    expected: dict[str, list[tuple[object, ...]]] = {}
    for name, sigs in old_entries:
        if name in replaced:
            continue
        if name in moves:
            key = sigs[0]
            sigs = [(key[0], moves[name], *key[2:4]), *sigs[1:]]
            name = moves[name]
        expected[name] = sigs
    got = {name: sigs for name, sigs in new_entries}
    if len(got) != len(new_entries):
        raise fail("an id appears twice")
    for name, sigs in expected.items():
        new_sigs = got.get(name)
        if new_sigs is None:
            raise fail(f"entry {name} went missing")
        if name in moves.values():
            new_sigs = [new_sigs[0][:4], *new_sigs[1:]]
        if name in filled:
            stripped = without_filled(new_sigs, filled[name], placeholder)
            if stripped is None:
                raise fail(f"entry {name} did not get exactly its new cells")
            empty = _was_empty(sigs) and len(stripped) == 3 and stripped[0] == sigs[0]
            new_sigs = sigs if empty else stripped
        if new_sigs != sigs:
            raise fail(f"entry {name} changed")
    if set(got) != set(expected) | {job.id for job in added}:
        raise fail("unexpected entries")
    old_order = [moves.get(n, n) for n, _ in old_entries if n not in replaced]
    kept = [name for name, _ in new_entries if name in expected]
    if not set(moves.values()) and kept != old_order:
        raise fail("entries changed order")


def without_filled(
    sigs: Sequence[Signature], cells: Sequence[str], placeholder: str
) -> list[Signature] | None:
    """An entry's events without the filled cells at the end of its mapping, or ``None`` when
    they are not there exactly as planned (each cell, in order, holding the placeholder)."""
    count = 2 * len(cells)
    if len(sigs) < count + 3 or sigs[1][0] != "MappingStartEvent":
        return None
    if sigs[-1][0] != "MappingEndEvent":
        return None
    pairs = sigs[-1 - count : -1]
    for n, cell in enumerate(cells):
        key, value = pairs[2 * n], pairs[2 * n + 1]
        if key[:2] != ("ScalarEvent", cell) or value[:2] != ("ScalarEvent", placeholder):
            return None
    return [*sigs[: -1 - count], sigs[-1]]


def _was_empty(sigs: Sequence[Signature]) -> bool:
    """``job:`` with nothing after it: a key and an empty plain scalar."""
    return len(sigs) == 2 and sigs[1][0] == "ScalarEvent" and sigs[1][1] == ""
