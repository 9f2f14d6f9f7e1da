"""The trail's format: one JSON object per line, each naming the sha256 of the line before it.

A line is the record as JSON with sorted keys, ASCII only (so no tool splits a line where we did
not), and a ``\\n``. ``prev`` is the sha256 of the previous line's bytes without its newline; the
first line's ``prev`` is :data:`GENESIS`, 64 zeros, a value no line hashes to. An edited, removed
or reordered line breaks the chain at that place.

A chain alone cannot tell a log from one whose last lines were removed, so a small head file
beside it (``audit.ndjson.head``: how many lines, and the last one's sha256) is rewritten
atomically after every line; ``--verify`` compares the two.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..core.errors import JobledgerError

#: The ``prev`` of the first line: the sha256 of nothing that could be a line.
GENESIS = "0" * 64

#: Keys the log itself writes into every line; a record may not bring its own.
CHAIN_KEYS = ("prev", "time")


class AuditError(JobledgerError):
    """The trail cannot be written or read; a verdict is refused rather than given without it."""


def encode(record: Mapping[str, Any]) -> bytes:
    """One line of the log, newline included."""
    return (json.dumps(record, sort_keys=True, ensure_ascii=True) + "\n").encode("ascii")


def line_sha256(line: bytes) -> str:
    """The sha256 of one line as the next line's ``prev`` names it (without its newline)."""
    return hashlib.sha256(line.removesuffix(b"\n")).hexdigest()


def head_path(log: Path) -> Path:
    return log.with_name(log.name + ".head")


def encode_head(lines: int, sha256: str) -> str:
    return json.dumps({"lines": lines, "sha256": sha256}, sort_keys=True) + "\n"


def parse_record(raw: bytes) -> dict[str, Any] | None:
    """A line (or head) as a JSON object, or ``None``. Never raises: a line thousands of brackets
    deep (``RecursionError``), a 5,000-digit number or bytes that are not UTF-8 (``ValueError``)
    are what a hand-edited trail may hold, and ``--verify`` reports them as lines, located."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError, MemoryError):
        return None
    return data if isinstance(data, dict) else None


def decode_head(raw: bytes) -> tuple[int, str] | None:
    """The head's line count and sha256, or ``None`` when it is not a head this tool wrote."""
    data = parse_record(raw)
    if data is None:
        return None
    lines, sha256 = data.get("lines"), data.get("sha256")
    if isinstance(lines, bool) or not isinstance(lines, int) or lines < 0:
        return None
    if not isinstance(sha256, str) or len(sha256) != 64 or (lines == 0 and sha256 != GENESIS):
        return None
    return lines, sha256
