"""Markdown that shows text from a hostile repository as inert text: table cells, code spans,
paragraphs and fenced blocks.

Job ids, YAML values, docstrings and messages may hold pipes, backticks, HTML, link syntax, a
leading ``#`` or ``-``, newlines and control characters; every Markdown page this tool writes (the
job summary, the runbook) puts them through here, and nothing else writes user text into
Markdown. The output is plain CommonMark plus GitHub's tables, so GitHub, MkDocs and MyST render
it the same way without plugins.
"""

from __future__ import annotations

import re

from ..core.text import clip, escape_surrogates, one_line

#: One table cell never grows past this; a 10 MB YAML value must not eat the page.
MAX_CELL_CHARS = 1000
#: A paragraph or fenced block (an accepted purpose, a docstring) is longer, but still bounded.
MAX_BLOCK_CHARS = 20_000

_INLINE_SPECIAL = re.compile(r"([\\`*_\[\]<>|&~!#])")
#: What may start a block when it begins a line: a list item (``-``, ``+``, ``1.``, ``1)``) or a
#: setext heading underline (``=``). ``#``, ``>``, ``*``, ``_``, ``~`` and backticks are escaped
#: wherever they are.
_LINE_START = re.compile(r"^([-+=])|^(\d{1,9})([.)])")


def _lines(text: str) -> list[str]:
    """``text`` as lines without control characters: each is escaped as text.one_line does, so a
    terminal escape or a bidi override shows as ``\\x1b`` or ``\\u202e`` instead of acting."""
    return [one_line(line.replace("\t", "    ")) for line in text.splitlines()]


def escape_markdown(text: str, limit: int = MAX_CELL_CHARS) -> str:
    """Text for a table cell: Markdown/HTML specials escaped, newlines as ``<br>``, clipped."""
    text = escape_surrogates(clip(text, limit))
    text = _INLINE_SPECIAL.sub(r"\\\1", text)
    return "<br>".join(line.strip() for line in _lines(text)) if text else text


def escape_line(text: str, limit: int = MAX_CELL_CHARS) -> str:
    """One line of inline text that starts no block (no heading, list, quote or code fence)."""
    line = " ".join(part.strip() for part in _lines(clip(text, limit)))
    line = _INLINE_SPECIAL.sub(r"\\\1", line)
    return _LINE_START.sub(_escape_start, line)


def _escape_start(match: re.Match[str]) -> str:
    if match.group(1):
        return "\\" + match.group(1)
    return f"{match.group(2)}\\{match.group(3)}"


def paragraphs(text: str, *, quote: bool = False, limit: int = MAX_BLOCK_CHARS) -> str:
    """Multi-line text as inert Markdown paragraphs: each line escaped (:func:`escape_line`),
    kept as its own line by a hard break, blank lines separating paragraphs; with ``quote`` the
    whole is a block quote. No trailing newline."""
    blocks: list[list[str]] = [[]]
    for raw in clip(text, limit).splitlines():
        if raw.strip():
            blocks[-1].append(escape_line(raw, limit))
        elif blocks[-1]:
            blocks.append([])
    lines: list[str] = []
    for block in (block for block in blocks if block):
        if lines:
            lines.append("")
        lines.extend(f"{line}\\" for line in block[:-1])
        lines.append(block[-1])
    if quote:
        return "\n".join(f"> {line}" if line else ">" for line in lines)
    return "\n".join(lines)


def fenced(text: str, info: str = "text", limit: int = MAX_BLOCK_CHARS) -> str:
    """A fenced code block that holds any text: the fence is longer than any run of backticks in
    it, and control characters are escaped. No trailing newline."""
    body = _lines(clip(text, limit))
    longest = max((len(run) for run in re.findall(r"`+", "\n".join(body))), default=0)
    fence = "`" * max(3, longest + 1)
    return "\n".join([f"{fence}{info}", *body, fence])


def code(text: str, limit: int = MAX_CELL_CHARS, *, in_table: bool = True) -> str:
    """A code span that holds any text, backticks included, on one line.

    In a table (the default) pipes are escaped as GitHub's tables require; elsewhere (a heading)
    a backslash would show, so they are left as they are.
    """
    text = " ".join(_lines(clip(text, limit)))
    if in_table:
        text = text.replace("|", "\\|")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


class Budget:
    """The UTF-8 bytes a Markdown text may still take, with ``reserve`` bytes kept for the note
    that says what was left out: the job summary's tables, the changes table and the runbook rows
    all stay under GitHub's limit by the same rule."""

    def __init__(self, limit: int, *, reserve: int, used: str = "") -> None:
        self.limit = limit
        self.reserve = reserve
        self.used = size_of(used)

    @property
    def room(self) -> bool:
        """Whether what is used so far still leaves the reserve."""
        return self.used + self.reserve <= self.limit

    def take(self, text: str) -> bool:
        """Count ``text`` in when it fits before the reserve (``False``, nothing counted: not)."""
        size = size_of(text)
        if self.used + size + self.reserve > self.limit:
            return False
        self.used += size
        return True

    def add(self, text: str) -> None:
        """Count ``text`` in whether or not it fits (a separator the reserve has room for)."""
        self.used += size_of(text)


def size_of(text: str) -> int:
    """``text``'s size as GitHub counts it: UTF-8 bytes."""
    return len(text.encode("utf-8"))
