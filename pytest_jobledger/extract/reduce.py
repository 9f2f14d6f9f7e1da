"""Less for libcst to parse: the bodies of functions that spell no relevant word are blanked.

libcst costs ten to twenty times CPython's own parser, and in a real application the files that
may register a job are mostly ordinary code: helpers and methods around a few registrations. A
place inside a function body yields something only when its callee's last part is relevant
(:meth:`.prefilter.Words.relevant`, the rule :class:`.sites.Sites` skips places by), so a body
whose text spells no relevant word (in code, strings or comments) can yield nothing, and nothing
else reads a body beyond its first statement (a docstring; parameters are in the header, kept).

Such a body keeps its first statement; its other lines become empty lines, so every kept line
keeps its number and columns, and the ``ast`` tree (parsed once, and used by the walker for line
numbers) loses the same statements. Only functions at module level and in classes (at any depth
of ``if``/``try``/``with``/``class``) are blanked, never one inside another function, and never
one that says ``global`` (a ``global`` statement binds a module name the resolver reads). The
identifiers of the blanked lines are returned: a scan made from the reduced text is valid only
while none of them becomes relevant (they join the scan's skipped words, :class:`.deps.Trail`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator

_NEWLINE = re.compile(r"\r\n|\r|\n")
_IDENTIFIER = re.compile(r"(?<!\w)[^\W\d]\w*")


def reduce_source(
    text: str, tree: ast.Module, spells_relevant: Callable[[str], bool]
) -> tuple[str, frozenset[str]] | None:
    """``text`` with the bodies that cannot matter blanked, and the identifiers they spelled;
    ``None`` when nothing can be blanked. ``tree`` is CPython's parse of ``text`` and loses the
    same statements; ``spells_relevant(segment)``: whether a piece of source spells a relevant
    word. Text that is not ASCII is left whole (identifiers are read as NFKC there)."""
    if not text.isascii():
        return None
    starts = [0, *(found.end() for found in _NEWLINE.finditer(text))]
    if starts[-1] != len(text):
        starts.append(len(text))
    lines = len(starts) - 1

    def span(first: int, last: int) -> str:
        return text[starts[first - 1] : starts[min(last, lines)]]

    blanked: list[tuple[int, int]] = []
    for node in _definitions(tree.body):
        body = node.body
        if len(body) < 2:
            continue
        first, last = body[1].lineno, node.end_lineno or 0
        if body[0].end_lineno is None or body[0].end_lineno >= first or last < first:
            continue  # ``"doc"; x = 1``: statements share a line
        if last > lines or span(first - 1, first - 1).rstrip("\r\n").endswith("\\"):
            continue
        if "global" in span(node.lineno, last) or spells_relevant(span(node.lineno, last)):
            continue
        if span(last, last).rstrip("\r\n").endswith("\\"):
            continue
        node.body = body[:1]
        blanked.append((first, last))
    if not blanked:
        return None
    parts: list[str] = []
    words: set[str] = set()
    at = 1
    for first, last in blanked:
        parts.append(span(at, first - 1) if first > at else "")
        removed = span(first, last)
        words.update(_IDENTIFIER.findall(removed))
        parts.append("".join(_NEWLINE.findall(removed)))
        at = last + 1
    if at <= lines:
        parts.append(span(at, lines))
    return "".join(parts), frozenset(words)


def _definitions(body: list[ast.stmt]) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """Every function not inside another function, in the order of the text."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node
        elif isinstance(node, ast.ClassDef):
            yield from _definitions(node.body)
        else:
            for name in ("body", "orelse", "finalbody"):
                inner = getattr(node, name, None)
                if isinstance(inner, list):
                    yield from _definitions(inner)
            for handler in getattr(node, "handlers", None) or ():
                yield from _definitions(handler.body)
            for case in getattr(node, "cases", None) or ():
                yield from _definitions(case.body)
