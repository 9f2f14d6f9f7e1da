"""Markdown that shows text from a hostile repository as inert text: table cells and code spans.

Job ids, YAML values and messages may hold pipes, backticks, HTML and link syntax; every Markdown
page this tool writes (the job summary, the runbook) puts them through here.
"""

from __future__ import annotations

import re

from ..text import clip, escape_surrogates

#: One table cell never grows past this; a 10 MB YAML value must not eat the page.
MAX_CELL_CHARS = 1000

_INLINE_SPECIAL = re.compile(r"([\\`*_\[\]<>|&~!#])")


def escape_markdown(text: str, limit: int = MAX_CELL_CHARS) -> str:
    """Text for a table cell: Markdown/HTML specials escaped, newlines as ``<br>``, clipped."""
    text = escape_surrogates(clip(text, limit))
    text = _INLINE_SPECIAL.sub(r"\\\1", text)
    return "<br>".join(line.strip() for line in text.splitlines()) if text else text


def code(text: str, limit: int = MAX_CELL_CHARS) -> str:
    """A code span that holds any text, backticks and pipes included, on one line."""
    text = escape_surrogates(clip(text, limit))
    text = " ".join(text.split("\n")).replace("\r", " ").replace("|", "\\|")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"
