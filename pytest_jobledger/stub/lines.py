"""An overlay's text as physical lines: split at ``\\n`` only, each keeping its ending, with the
offset-to-line lookups the stub's layout needs (a BOM, CRLF or a Unicode line separator never
shifts a line count)."""

from __future__ import annotations

import bisect
from dataclasses import dataclass


@dataclass(frozen=True)
class Lines:
    """The text split at ``\\n`` only (each line keeps its ending), with offset-to-line lookup."""

    text: str
    lines: tuple[str, ...]
    starts: tuple[int, ...]

    @classmethod
    def of(cls, text: str) -> Lines:
        # Not str.splitlines: it also splits at \r, \x0b, \x85, \u2028..., which are not lines here.
        lines = tuple(_split_at_newline(text))
        starts: list[int] = []
        offset = 0
        for line in lines:
            starts.append(offset)
            offset += len(line)
        return cls(text=text, lines=lines, starts=tuple(starts))

    def line_of(self, index: int) -> int:
        """The physical line holding character ``index`` (the last line for the end of text)."""
        if not self.lines:
            return 0
        return max(0, bisect.bisect_right(self.starts, index) - 1)

    def column_of(self, index: int) -> int:
        line = self.line_of(index)
        column = index - self.starts[line] if self.lines else index
        if line == 0 and self.text.startswith("\ufeff"):
            column -= 1
        return column

    def is_blank(self, line: int) -> bool:
        return not self.lines[line].strip()

    def comment_column(self, line: int) -> int | None:
        """The column of ``#`` when the line is a full-line comment, else ``None``."""
        body = self.lines[line].lstrip(" \t\ufeff")
        if not body.startswith("#"):
            return None
        return len(self.lines[line]) - len(body)

    @property
    def newline(self) -> str:
        """The file's line ending, taken from its first line (``\\n`` for a one-line file)."""
        first = self.lines[0] if self.lines else ""
        return "\r\n" if first.endswith("\r\n") else "\n"


def _split_at_newline(text: str) -> list[str]:
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines
