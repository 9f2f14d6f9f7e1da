"""Markdown that shows text from a hostile repository as inert text, for every consumer: table
cells, code, paragraphs and blocks.

Job ids, YAML values, docstrings and messages may hold pipes, backticks, HTML, link syntax, a
leading ``#`` or ``-``, newlines, control characters, and the template and include syntaxes of
the docs tools a page may pass through on its way to a site: Jinja ``{{ }}`` / ``{% %}`` /
``{# #}`` (mkdocs-macros), MyST substitutions ``{{x}}`` and roles ``{role}`x```, pymdownx
snippets (``--8<--``, ``;--8<--``), markdown-include's ``{!file!}``. Those run before any
Markdown is parsed, on the page's raw text, code blocks included, so backslash escapes and code
fences cannot stop them.

The one rule (:func:`entities`): every ASCII punctuation character of repository text is written
as its numeric HTML entity (``{`` as ``&#123;``), so the raw page holds no delimiter of any of
those syntaxes and no Markdown punctuation, while every renderer (CommonMark, GitHub,
Python-Markdown, MyST) shows the original character. Code is HTML ``<code>`` and ``<pre>``
around entity text, never backticks or fences (whose content a preprocessor would read raw).
Every Markdown page this tool writes (the job summary, the runbook) puts repository text
through here, and nothing else writes it into Markdown.
"""

from __future__ import annotations

import re

from ..core.text import clip, escape_surrogates, one_line

#: One table cell never grows past this; a 10 MB YAML value must not eat the page.
MAX_CELL_CHARS = 1000
#: A paragraph or code block (an accepted purpose, a docstring) is longer, but still bounded.
MAX_BLOCK_CHARS = 20_000

#: Every ASCII character that is not a letter, a digit or a space: what any Markdown dialect,
#: template engine or include preprocessor could read as syntax.
_PUNCTUATION = re.compile(r"[!-/:-@\[-`{-~]")


def entities(text: str) -> str:
    """``text`` with every ASCII punctuation character as its numeric entity (``&#123;``).

    Letters, digits, spaces and non-ASCII text stay as they are; no template engine, include
    preprocessor or Markdown parser finds a delimiter in the result, and a browser shows the
    original text.
    """
    return _PUNCTUATION.sub(lambda match: f"&#{ord(match.group())};", text)


def _lines(text: str) -> list[str]:
    """``text`` as lines without control characters: each is escaped as text.one_line does, so a
    terminal escape or a bidi override shows as ``\\x1b`` or ``\\u202e`` instead of acting."""
    return [one_line(line.replace("\t", "    ")) for line in escape_surrogates(text).splitlines()]


def escape_markdown(text: str, limit: int = MAX_CELL_CHARS) -> str:
    """Text for a table cell: inert (:func:`entities`), newlines as ``<br>``, clipped."""
    return "<br>".join(entities(line.strip()) for line in _lines(clip(text, limit)))


def escape_line(text: str, limit: int = MAX_CELL_CHARS) -> str:
    """One line of inline text that starts no block (no heading, list, quote or code block)."""
    return entities(" ".join(part.strip() for part in _lines(clip(text, limit))).strip())


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


def fenced(text: str, limit: int = MAX_BLOCK_CHARS) -> str:
    """A block of preformatted text that holds any text, on lines of its own: HTML ``<pre>``
    around inert lines, one physical line, each line break written as ``&#10;``.

    A fence would hand its content to every preprocessor raw; a ``<pre>`` block spread over lines
    ends at a blank line in some parsers. One line of entities is the same block everywhere.
    No trailing newline.
    """
    body = "&#10;".join(entities(line) for line in _lines(clip(text, limit)))
    return f"<pre><code>{body}</code></pre>"


def code(text: str, limit: int = MAX_CELL_CHARS, *, in_table: bool = True) -> str:
    """Inline code that holds any text on one line: HTML ``<code>`` around inert text.

    A pipe is an entity like every punctuation character, so the code keeps a table row whole
    (``in_table``, kept for callers, changes nothing) and a heading shows no backslash.
    """
    del in_table
    text = " ".join(_lines(clip(text, limit)))
    return f"<code>{entities(text)}</code>"


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
