"""Text helpers every stage shares: one line, clipped, and "did you mean". Nothing else lives here.

Job ids, YAML keys, docstrings and paths come from the scanned repository, which may be hostile;
these helpers are how any of them is made safe to print on one line or short enough to show.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

ELLIPSIS = "…"


def one_line(text: str) -> str:
    """``text`` with control characters escaped (``\\n``), for terminal and log output.

    A raw newline would split a one-line-per-finding report and could start a forged CI workflow
    command.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode() for ch in text)


def clip(text: str, limit: int, *, ellipsis: str = ELLIPSIS) -> str:
    """``text`` cut to at most ``limit`` characters, the cut marked with ``ellipsis``."""
    if len(text) <= limit:
        return text
    return text[: max(limit - len(ellipsis), 0)] + ellipsis


def did_you_mean(word: str, options: Iterable[str], *, cutoff: float = 0.6) -> str | None:
    """The option closest to ``word`` (a likely typo of it), or ``None`` when none is close."""
    close = difflib.get_close_matches(word, sorted(set(options)), n=1, cutoff=cutoff)
    return close[0] if close else None


_SURROGATE = re.compile("[\ud800-\udfff]")


def has_surrogate(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate (from a ``\\udfff`` escape): not a character, so
    it cannot be written as UTF-8."""
    return _SURROGATE.search(text) is not None


def escape_surrogates(text: str) -> str:
    """``text`` with each lone surrogate written as its ``\\uXXXX`` escape, so that it can be
    written as UTF-8 (inside a JSON string the escape reads back as the same value)."""
    return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)
