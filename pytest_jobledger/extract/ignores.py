"""Accepted places, on purpose: ``# jobledger: ignore[pattern] -- reason`` on a problem's line.

As ``# noqa`` is for ruff, the comment turns the located problems of those patterns on its line
(every pattern, without brackets) into accepted ones: kept in the ledger with the reason, shown
by the gate as a notice that does not fail. The reason is required, so a reviewer reads why. An
ignore that accepts nothing, names a pattern this version does not know, or gives no reason is
itself a located problem (as ruff's RUF100 reports an unused ``noqa``), so a stale one cannot
hide a future registration on that line.

Comments are read with the tokenizer from the file's text (the prefilter's reading,
:func:`comments`), never by importing anything, and only in files whose text holds the marker.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from ..core.text import clip
from ..ledger.model import Pattern, Unsupported

#: The marker, however it is spaced or capitalised.
_MARKER = re.compile(r"jobledger:\s*ignore", re.IGNORECASE)

#: ``# jobledger: ignore``, optionally ``[a, b]``, optionally `` -- reason``.
_IGNORE = re.compile(
    r"#\s*jobledger:\s*ignore(?P<codes>\[[^\]]*\])?(?P<rest>.*)$", re.IGNORECASE | re.DOTALL
)
_REASON = re.compile(r"\s*(?:--|—|:)\s*(?P<reason>\S.*)$", re.DOTALL)

#: The patterns an ignore may not accept: its own problems.
_OWN = frozenset({Pattern.UNUSED_IGNORE, Pattern.INVALID_IGNORE})


@dataclass(frozen=True)
class Ignore:
    """One parsed comment: ``codes`` is ``None`` for every pattern."""

    line: int
    codes: frozenset[str] | None
    reason: str | None
    text: str


def comments(text: str) -> tuple[tuple[int, str], ...]:
    """Every ``# jobledger: ignore`` comment of ``text``, as ``(line, comment)``: a comment
    token (never a string that spells the marker). A file the tokenizer cannot read is read a
    line at a time instead, so no accepted place is lost on a file that does not parse."""
    if ("edger" not in text and "EDGER" not in text) or _MARKER.search(text) is None:
        return ()  # a plain substring test first: the regular expression costs far more
    found: list[tuple[int, str]] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT and _MARKER.search(token.string):
                found.append((token.start[0], token.string))
    except (tokenize.TokenError, SyntaxError, ValueError):
        found = [
            (number, line[line.index("#") :])
            for number, line in enumerate(text.splitlines(), 1)
            if "#" in line and _MARKER.search(line[line.index("#") :])
        ]
    return tuple(found)


def parse(line: int, comment: str) -> Ignore:
    found = _IGNORE.search(comment)
    if found is None:
        return Ignore(line, frozenset(), None, comment)
    codes: frozenset[str] | None = None
    if found.group("codes") is not None:
        inner = found.group("codes")[1:-1]
        codes = frozenset(code.strip().lower() for code in inner.split(",") if code.strip())
    reason = _REASON.match(found.group("rest"))
    return Ignore(line, codes, reason.group("reason").strip() if reason else None, comment)


def apply(
    unsupported: Sequence[Unsupported], by_path: Mapping[str, Iterable[tuple[int, str]]]
) -> list[Unsupported]:
    """``unsupported`` with each problem an ignore accepts marked accepted, and a problem for
    each ignore that is unused or invalid."""
    result = list(unsupported)
    index: dict[tuple[str, int], list[int]] = {}
    for position, item in enumerate(result):
        if item.pattern not in _OWN:
            index.setdefault((item.path, item.line), []).append(position)
    known = {pattern.value for pattern in Pattern} - {pattern.value for pattern in _OWN}
    for path in sorted(by_path):
        for line, comment in by_path[path]:
            ignore = parse(line, comment)
            unknown = sorted((ignore.codes or frozenset()) - known)
            if unknown or ignore.codes == frozenset():
                names = ", ".join(unknown) or "nothing"
                result.append(
                    _problem(
                        path,
                        line,
                        Pattern.INVALID_IGNORE,
                        f"'{clip(ignore.text, 60)}' names {names}, not a pattern jobledger "
                        "reports, so it accepts nothing.\nName one of: " + ", ".join(sorted(known)),
                    )
                )
                continue
            if ignore.reason is None:
                result.append(
                    _problem(
                        path,
                        line,
                        Pattern.INVALID_IGNORE,
                        "This jobledger ignore gives no reason, so it accepts nothing.\nWrite why "
                        "after it: '# jobledger: ignore[pattern] -- built per tenant at startup'",
                    )
                )
                continue
            used = False
            for position in index.get((path, line), ()):
                item = result[position]
                if ignore.codes is None or item.pattern.value in ignore.codes:
                    result[position] = replace(item, accepted=ignore.reason)
                    used = True
            if not used:
                what = "any" if ignore.codes is None else ", ".join(sorted(ignore.codes))
                result.append(
                    _problem(
                        path,
                        line,
                        Pattern.UNUSED_IGNORE,
                        f"This jobledger ignore accepts no {what} problem: none is reported on "
                        "this line.\nRemove the comment (or move it to the line of the problem "
                        "it accepts)",
                    )
                )
    return result


def _problem(path: str, line: int, pattern: Pattern, message: str) -> Unsupported:
    return Unsupported(path, line, pattern, message)
