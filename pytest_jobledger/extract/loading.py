"""Reading and parsing scanned files, once each: bytes in, a module summary or a located problem.

A file that is too large, unreadable, undecodable or not valid Python is never a crash and never a
silent gap: it becomes an :class:`~pytest_jobledger.ledger.model.Unsupported` entry naming the file
and line, so the gate fails until the file parses or is excluded on purpose.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst

from ..ledger.model import Pattern, Unsupported
from ..paths import FileTooLarge, read_regular
from .discovery import SourceFile
from .records import ModuleSummary
from .walker import summarize


@dataclass
class SourceLoader:
    """Reads and parses files on demand, keeping each summary and every problem met."""

    max_file_bytes: int
    root: Path | None = None
    problems: list[Unsupported] = field(default_factory=list)
    _summaries: dict[str, ModuleSummary | None] = field(default_factory=dict)

    def read(self, source: SourceFile) -> bytes | None:
        """The file's bytes: a regular file inside the root, within ``max_file_bytes``."""
        try:
            return read_regular(source.abs_path, root=self.root, limit=self.max_file_bytes)
        except FileTooLarge as exc:
            self._problem(
                source,
                1,
                Pattern.FILE_TOO_LARGE,
                f"{exc.size} bytes is over max_file_bytes ({self.max_file_bytes}); it was not "
                "parsed, so jobs it registers are missing. Raise [tool.jobledger] "
                "max_file_bytes, or add the file to exclude if it registers no jobs",
            )
            return None
        except OSError as exc:
            self._problem(
                source,
                1,
                Pattern.UNREADABLE,
                f"cannot read the file ({exc.strerror or exc}); fix or exclude it",
            )
            return None

    def summary(self, source: SourceFile, data: bytes | None = None) -> ModuleSummary | None:
        """The file's summary, parsed once (``None`` when it cannot be read or parsed)."""
        key = source.rel_path
        if key not in self._summaries:
            if data is None:
                data = self.read(source)
            self._summaries[key] = None if data is None else self._parse(source, data)
        return self._summaries[key]

    def _parse(self, source: SourceFile, data: bytes) -> ModuleSummary | None:
        try:
            tree = cst.parse_module(data)
        except cst.ParserSyntaxError as exc:
            self._problem(
                source,
                exc.raw_line,
                Pattern.SYNTAX_ERROR,
                f"cannot parse: {exc.message}; jobs in this file are not in the ledger until "
                "it parses",
            )
            return None
        except (SyntaxError, UnicodeDecodeError, LookupError) as exc:
            self._problem(
                source,
                getattr(exc, "lineno", None) or 1,
                Pattern.DECODE_ERROR,
                f"cannot decode the file ({_decode_reason(exc)}); save it as UTF-8 or fix its "
                "coding cookie",
            )
            return None
        except RecursionError:
            self._problem(
                source,
                1,
                Pattern.TOO_COMPLEX,
                "too deeply nested to parse; jobs in it are not listed",
            )
            return None
        try:
            return summarize(source, tree, data)
        except RecursionError:
            self._problem(
                source,
                1,
                Pattern.TOO_COMPLEX,
                "too deeply nested to analyse; jobs in it are not listed",
            )
            return None

    def _problem(self, source: SourceFile, line: int, pattern: Pattern, message: str) -> None:
        self.problems.append(Unsupported(source.rel_path, max(line, 1), pattern, message))


def _decode_reason(exc: BaseException) -> str:
    if isinstance(exc, UnicodeDecodeError):
        return f"byte 0x{exc.object[exc.start]:02x} at offset {exc.start} is not {exc.encoding}"
    if isinstance(exc, LookupError):
        return str(exc)
    message = getattr(exc, "msg", None) or str(exc)
    return str(message)
