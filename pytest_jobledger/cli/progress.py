"""How far a long ``jobledger extract`` is, on stderr: files read, parsed and jobs found.

Shown only when stderr is a terminal and the run has taken more than :data:`DELAY` seconds (a
quick run, and every CI log, stay as they were), or when asked (``--progress``). One line,
rewritten in place at most a few times a second, and cleared when the run is done.

Asked for where the stream is not a terminal (a CI log), each update is a line of its own, and
the last line is written by :meth:`TerminalProgress.finish` with the ledger's own job count, so it
agrees with the ``wrote ...: N jobs`` line that follows (a throttled update, or jobs read back
from the content cache, would otherwise leave an older count last).
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from ..core.text import one_line, say

#: A run shorter than this shows nothing.
DELAY = 2.0
#: The line is rewritten at most this often.
INTERVAL = 0.2


class TerminalProgress:
    """:class:`pytest_jobledger.extract.engine.Progress` on a stream (stderr by default)."""

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        forced: bool = False,
        delay: float = DELAY,
        quiet: bool = False,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        # -q drops the progress a terminal would get unasked; --progress still shows it.
        self.enabled = forced or (not quiet and _is_terminal(self.stream))
        self.forced = forced
        self.start = time.monotonic()
        self.delay = 0.0 if forced else delay
        self.last = 0.0
        self.shown = False
        self.counts = (0, 0, 0, 0)
        """The newest counts told (files, read, parsed, jobs), shown or not."""
        self.written: str | None = None
        """The last line written as a line of its own (not a terminal)."""

    def update(self, *, files: int, read: int, parsed: int, jobs: int) -> None:
        if not self.enabled:
            return
        self.counts = (files, read, parsed, jobs)
        now = time.monotonic()
        if now - self.start < self.delay or now - self.last < INTERVAL:
            return
        self.last = now
        line = _line(files, read, parsed, jobs)
        if self.forced and not _is_terminal(self.stream):
            say(line + "\n", self.stream, end="", flush=True)
            self.written = line
        else:
            say("\r\x1b[K" + line, self.stream, end="", flush=True)
            self.shown = True

    def done(self) -> None:
        if self.shown:
            say("\r\x1b[K", self.stream, end="", flush=True)
            self.shown = False

    def finish(self, *, jobs: int) -> None:
        """The run is over and found ``jobs`` jobs: a line-per-update progress ends on a line
        with that count and the newest file counts (a terminal's line was cleared already)."""
        if not (self.forced and self.enabled) or _is_terminal(self.stream):
            return
        files, read, parsed, _ = self.counts
        line = _line(files, read, parsed, jobs)
        if line != self.written:
            say(line + "\n", self.stream, end="", flush=True)
            self.written = line


def _line(files: int, read: int, parsed: int, jobs: int) -> str:
    return one_line(f"jobledger: {files:,} files, {read:,} read, {parsed:,} parsed, {jobs:,} jobs")


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
