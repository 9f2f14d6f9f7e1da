"""Less for libcst to parse: the bodies of functions that spell no relevant word are blanked.

libcst costs ten to twenty times CPython's own parser, and in a real application the files that
may register a job are mostly ordinary code: helpers and methods around a few registrations. A
place inside a function body yields something only when its callee's last part is relevant
(:meth:`.prefilter.Words.relevant`, the rule :class:`.sites.Sites` skips places by), so a body
whose text spells no relevant word (in code, strings or comments) can yield nothing, and nothing
else reads a body beyond its docstring (parameters are in the header, kept).

Such a body keeps its first statement when it is a string (the docstring, which a row reads), else
becomes ``...``; its other lines are left out of what libcst parses (libcst spends as much on an
empty line as on a short statement), and the ``ast`` tree (parsed once) loses the same statements.
The walker reads every line number from that tree (:func:`.walker.summarize` with ``strict``), so
the lines of the reduced text need not be the file's. Only functions at module level and in
classes (at any depth of ``if``/``try``/``with``/``class``) are reduced, never one inside another
function, and never one that says ``global`` (a ``global`` statement binds a module name the
resolver reads). The identifiers of the left-out lines are returned: a scan made from the reduced
text is valid only while none of them becomes relevant (they join the scan's skipped words,
:class:`.deps.Trail`).
"""

from __future__ import annotations

import ast
import bisect
import itertools
import keyword
import re
from collections.abc import Iterator, Sequence

from .prefilter import names_as_written, wide_words

_NEWLINE = re.compile(r"\r\n|\r|\n")
_GLOBAL = re.compile("global")
#: ``self.retry(`` in a body is a fact a Celery row reads (the body calls retry): kept whole.
_RETRY = re.compile(r"\.\s*retry\s*\(")
_IDENTIFIER = re.compile(r"(?<!\w)[^\W\d]\w*")


def reduce_source(
    text: str, tree: ast.Module, relevant_at: Sequence[int]
) -> tuple[str, frozenset[str]] | None:
    """``text`` with the bodies that cannot matter blanked, and the identifiers they spelled;
    ``None`` when nothing can be blanked. ``tree`` is CPython's parse of ``text`` and loses the
    same statements; ``relevant_at``: where each relevant word starts, in order
    (:func:`.prefilter.iter_words`). Text whose identifiers are not all NFKC already is left
    whole (Python reads them normalised, so the words found in it may not be the names:
    :func:`.prefilter.names_as_written`)."""
    wide = not text.isascii()
    if wide and not names_as_written(text):
        return None
    starts = [0, *(found.end() for found in _NEWLINE.finditer(text))]
    if starts[-1] != len(text):
        starts.append(len(text))
    lines = len(starts) - 1

    def span(first: int, last: int) -> str:
        return text[starts[first - 1] : starts[min(last, lines)]]

    globals_at = [found.start() for found in _GLOBAL.finditer(text)]
    globals_at += [found.start() for found in _RETRY.finditer(text)]
    globals_at.sort()
    blanked: list[tuple[int, int, str]] = []  # first and last line, and what replaces them
    gaps: list[tuple[int, int]] = []
    for node in _definitions(tree.body, gaps):
        body = node.body
        keep = 1 if _literal(body[0]) else 0
        if len(body) <= keep:
            continue
        start = body[keep]
        first, last = start.lineno, node.end_lineno or 0
        if first > lines or last > lines or last < first:
            continue
        before = _columns(span(first, first), start.col_offset, wide)
        if before.strip() or span(first - 1, first - 1).rstrip("\r\n").endswith("\\"):
            continue  # ``def f(): x`` or ``"doc"; x = 1``: the body shares a line
        lower, upper = starts[node.lineno - 1], starts[last]
        if _within(relevant_at, lower, upper) or _within(globals_at, lower, upper):
            continue
        if span(last, last).rstrip("\r\n").endswith("\\"):
            continue
        if keep:
            node.body = body[:1]
            blanked.append((first, last, ""))
        else:
            ellipsis = ast.Expr(ast.Constant(...))
            ast.copy_location(ellipsis, start)
            ellipsis.value.lineno = start.lineno
            node.body = [ellipsis]
            blanked.append((first, last, before + "..."))
    if not blanked:
        return None
    for first, last in gaps:  # blank and comment lines between statements: nothing to parse
        if last <= lines and not any(
            span(line, line).rstrip("\r\n").endswith("\\") for line in range(first - 1, last + 1)
        ):
            blanked.append((first, last, ""))
    blanked.sort()
    parts: list[str] = []
    words: set[str] = set()
    at = 1
    for first, last, replacement in blanked:
        parts.append(span(at, first - 1) if first > at else "")
        removed = span(first, last)
        words.update(w for w in _IDENTIFIER.findall(removed) if not keyword.iskeyword(w))
        if wide:
            words.update(wide_words(removed))
        if replacement:
            newline = _NEWLINE.search(removed)
            parts.append(replacement + (newline.group() if newline else ""))
        at = last + 1
    if at <= lines:
        parts.append(span(at, lines))
    return "".join(parts), frozenset(words)


def _columns(line: str, offset: int, wide: bool) -> str:
    """The first ``offset`` columns of ``line`` as CPython counts them (UTF-8 bytes)."""
    if not wide:
        return line[:offset]
    return line.encode("utf-8", "surrogatepass")[:offset].decode("utf-8", "replace")


def _within(offsets: Sequence[int], lower: int, upper: int) -> bool:
    """Whether one of the sorted ``offsets`` is in ``[lower, upper)``."""
    at = bisect.bisect_left(offsets, lower)
    return at < len(offsets) and offsets[at] < upper


def _literal(statement: ast.stmt) -> bool:
    """A first statement that may be a docstring (kept: the row reads it)."""
    return isinstance(statement, ast.Expr) and isinstance(
        statement.value, (ast.Constant, ast.JoinedStr)
    )


def _definitions(
    body: list[ast.stmt], gaps: list[tuple[int, int]]
) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """Every function not inside another function, in the order of the text; ``gaps`` gains the
    lines between the statements of each body walked."""
    for before, after in itertools.pairwise(body):
        end = before.end_lineno or 0
        start = min([after.lineno, *(d.lineno for d in getattr(after, "decorator_list", ()))])
        if end + 1 < start:
            gaps.append((end + 1, start - 1))
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node
        elif isinstance(node, ast.ClassDef):
            yield from _definitions(node.body, gaps)
        else:
            for name in ("body", "orelse", "finalbody"):
                inner = getattr(node, name, None)
                if isinstance(inner, list):
                    yield from _definitions(inner, gaps)
            for handler in getattr(node, "handlers", None) or ():
                yield from _definitions(handler.body, gaps)
            for case in getattr(node, "cases", None) or ():
                yield from _definitions(case.body, gaps)
