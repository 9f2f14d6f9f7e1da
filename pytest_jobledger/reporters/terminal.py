"""Whether to colour the text report, and how: ``--color auto|always|never``.

``auto`` colours only a terminal: never a pipe, a file or a CI log (``CI`` set), never with
``NO_COLOR`` set (https://no-color.org) or ``TERM=dumb``; ``FORCE_COLOR`` asks for colour where
``auto`` would not (``NO_COLOR`` still wins, as in pytest). ``always`` and ``never`` override all
of them. Colour is added after :func:`~pytest_jobledger.core.text.one_line`: an escape sequence is a
control character and would be escaped.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import TextIO

CHOICES = ("auto", "always", "never")


class Style(str, enum.Enum):
    """The few styles the report uses, as SGR codes."""

    BOLD = "1"
    RED = "31"
    GREEN = "32"
    YELLOW = "33"
    CYAN = "36"


def use_color(choice: str, stream: TextIO, environ: Mapping[str, str]) -> bool:
    """Whether ``stream`` gets colour for ``--color choice`` in this environment."""
    if choice == "always":
        return True
    if choice == "never" or environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR", "0") not in ("", "0"):
        return True
    if environ.get("CI") or environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty is not None and isatty())


def paint(text: str, style: Style | None, color: bool) -> str:
    """``text`` in ``style`` when colouring (``text`` is already one safe line)."""
    if not color or style is None or not text:
        return text
    return f"\033[{style.value}m{text}\033[0m"
