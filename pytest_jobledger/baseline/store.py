"""The committed baseline file read back, or a located refusal.

A missing file is no baseline (every failure fails). Anything else that is not exactly a baseline
this version can read (not UTF-8, not JSON, another tool's file, a newer format, an entry that
names no finding kind or a status item, an item listed twice) is a :class:`BaselineError` naming
the file and line: never a crash, and never a silent pass.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..core.errors import JobledgerError
from ..core.readers import Unreadable, parse_json
from ..core.text import did_you_mean
from ..findings import STATUS_JOB, Kind
from ..project import Config
from ..project.files import read_file
from .model import FORMAT, SCHEMA_VERSION, STATUS_KINDS, Baseline, Entry

#: A baseline larger than this is refused (one entry is under 200 bytes: 16 MiB is ~80,000).
_KEYS = frozenset({"entries", "format", "schema_version"})
_ENTRY_KEYS = frozenset({"id", "cell", "kind"})
_FIX = "fix it, or delete it and run `jobledger baseline`"


class BaselineError(JobledgerError):
    """The baseline file cannot be used; exit code 2."""


def read_baseline(config: Config) -> Baseline | None:
    """The configured baseline, or ``None`` when there is no such file."""
    read = read_file("baseline", config)
    if not read.exists:
        return None
    if read.line is not None:
        raise BaselineError(
            f"the baseline is not UTF-8 text; {_FIX}", path=read.display, line=read.line
        )
    if read.text is None:
        raise BaselineError(
            f"the baseline cannot be read ({read.reason}); {_FIX}", path=read.display
        )
    return parse_baseline(read.text, read.display)


def parse_baseline(text: str, display: str) -> Baseline:
    """``text`` as a baseline, or a :class:`BaselineError` located in ``display``."""
    try:
        data = parse_json(text)
    except Unreadable as error:
        problem = error.problem
        if problem.reason == "deep":
            message = "the baseline nests too deep to be one"
        elif problem.reason == "syntax":
            message = f"the baseline is not JSON ({problem.detail})"
        else:
            message = f"the baseline cannot be read ({problem.detail})"
        raise BaselineError(f"{message}; {_FIX}", path=display, line=problem.line) from None

    def fail(message: str, line: int = 1) -> BaselineError:
        return BaselineError(message, path=display, line=line)

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise fail(
            f'this is not a jobledger baseline (it has no "format": "{FORMAT}"); `jobledger '
            "baseline` writes that file: point `baseline` in [tool.jobledger] at another path, "
            "or move this file away"
        )
    version = data.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise fail(
            f'"schema_version" must be a whole number (this jobledger writes {SCHEMA_VERSION})'
        )
    if version > SCHEMA_VERSION:
        raise fail(
            f"the baseline was written by a newer jobledger (schema_version {version}; this one "
            f"reads {SCHEMA_VERSION}): upgrade pytest-jobledger"
        )
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise fail(f"unknown key {unknown[0]!r} in the baseline; {_FIX}")
    rows = data.get("entries")
    if not isinstance(rows, list):
        raise fail(f'"entries" must be a list of {{"id", "cell", "kind"}} objects; {_FIX}')
    lines = _entry_lines(text, rows)
    entries: list[Entry] = []
    seen: dict[tuple[str, str], int] = {}
    for row, line in zip(rows, lines, strict=True):
        entry = _entry(row, fail, line)
        first = seen.setdefault((entry.job, entry.cell), line)
        if first != line:
            raise fail(
                f"{entry.name} is listed twice (first at line {first}); an item fails one way "
                "at a time: keep one entry",
                line,
            )
        entries.append(entry)
    order = sorted(range(len(entries)), key=lambda index: entries[index])
    return Baseline(
        tuple(entries[index] for index in order), tuple(lines[index] for index in order), text
    )


def _entry(row: Any, fail: Any, line: int) -> Entry:
    if not isinstance(row, dict) or set(row) != _ENTRY_KEYS:
        raise fail('each entry is exactly {"id": ..., "cell": ..., "kind": ...}', line)
    if not all(isinstance(row[key], str) and row[key] for key in _ENTRY_KEYS):
        raise fail('an entry\'s "id", "cell" and "kind" are non-empty strings', line)
    try:
        kind = Kind(row["kind"])
    except ValueError:
        close = did_you_mean(row["kind"], [kind.value for kind in Kind])
        hint = f"; did you mean {close!r}?" if close else ""
        raise fail(f"{row['kind']!r} is not a finding kind{hint}", line) from None
    if row["id"] == STATUS_JOB or kind in STATUS_KINDS:
        raise fail(
            f"{row['id']}::{row['cell']} ({kind.value}) is a status item; status items are never "
            "baselined (they are the gate's footing, not legacy debt): remove the entry",
            line,
        )
    return Entry(row["id"], row["cell"], kind)


#: How far ahead an entry's id is looked for (an odd file's ids may be out of step).
_WINDOW = 64
_ID = re.compile(r'"id"\s*:\s*("(?:[^"\\]|\\.)*")')


def _entry_lines(text: str, rows: list[Any]) -> list[int]:
    """The line of each entry: where its ``"id"`` is written, matched in order; the line of
    ``"entries"`` when it cannot be found. One pass over the text, however long the file."""
    start = max(text.find('"entries"'), 0)
    fallback = text.count("\n", 0, start) + 1
    written: list[tuple[str, int]] = []
    line, counted = fallback, start
    for match in _ID.finditer(text, start):
        line += text.count("\n", counted, match.start())
        counted = match.start()
        try:
            written.append((json.loads(match.group(1)), line))
        except ValueError:
            continue
    lines: list[int] = []
    at = 0
    for row in rows:
        job = row.get("id") if isinstance(row, dict) else None
        window = range(at, min(at + _WINDOW, len(written)))  # bounded: a hostile file stays cheap
        found = next((i for i in window if written[i][0] == job), None)
        if found is None:
            lines.append(fallback)
            continue
        lines.append(written[found][1])
        at = found + 1
    return lines
