"""How far a long ``jobledger extract`` is, on stderr: files read, parsed and jobs found.

Shown only when stderr is a terminal and the run has taken more than :data:`DELAY` seconds (a
quick run, and every CI log, stay as they were), or when asked (``--progress``). One line,
rewritten in place at most a few times a second, and cleared when the run is done.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from ..text import one_line, say

#: A run shorter than this shows nothing.
DELAY = 2.0
#: The line is rewritten at most this often.
INTERVAL = 0.2


class TerminalProgress:
    """:class:`pytest_jobledger.extract.engine.Progress` on a stream (stderr by default)."""

    def __init__(
        self, stream: TextIO | None = None, *, forced: bool = False, delay: float = DELAY
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = forced or _is_terminal(self.stream)
        self.forced = forced
        self.start = time.monotonic()
        self.delay = 0.0 if forced else delay
        self.last = 0.0
        self.shown = False

    def update(self, *, files: int, read: int, parsed: int, jobs: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < self.delay or now - self.last < INTERVAL:
            return
        self.last = now
        line = one_line(
            f"jobledger: {files:,} files, {read:,} read, {parsed:,} parsed, {jobs:,} jobs"
        )
        if self.forced and not _is_terminal(self.stream):
            say(line + "\n", self.stream, end="")
        else:
            say("\r\x1b[K" + line, self.stream, end="")
            self.shown = True
        self.stream.flush()

    def done(self) -> None:
        if self.shown:
            say("\r\x1b[K", self.stream, end="")
            self.stream.flush()
            self.shown = False


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
