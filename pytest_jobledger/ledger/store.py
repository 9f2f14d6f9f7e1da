"""The committed ledger file: read as text (for freshness) or as a :class:`Ledger` (for evidence),
and a fresh ledger written in its place.

Reading never fails the caller: the gate and the stub both go on without a committed ledger, so
a missing file is ``None`` and an unreadable one comes with the reason.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..atomic import atomic_write
from ..errors import JobledgerError
from ..paths import read_regular
from .model import Ledger


def committed_bytes(path: Path, root: Path | None = None) -> tuple[bytes | None, str | None]:
    """The committed ledger's bytes (what an audit line hashes) and, when it cannot be read, why
    (``None, None``: no file)."""
    try:
        return read_regular(path, root=root), None
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, f"cannot read it ({exc.strerror or exc})"


def committed_text(path: Path, root: Path | None = None) -> tuple[str | None, str | None]:
    """The committed ledger's text and, when it cannot be read, why (``None, None``: no file)."""
    raw, problem = committed_bytes(path, root)
    return (None if raw is None else raw.decode("utf-8", errors="replace")), problem


def parse_ledger(text: str) -> Ledger | None:
    """The ledger ``text`` holds, or ``None`` when it is not a ledger jobledger can read."""
    try:
        return Ledger.from_json(json.loads(text))
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def committed_ledger(path: Path, root: Path | None = None) -> tuple[Ledger | None, str | None]:
    """The committed ledger parsed, or ``None`` and why not (``None, None``: there is no file)."""
    text, problem = committed_text(path, root)
    if text is None:
        return None, problem
    ledger = parse_ledger(text)
    if ledger is None:
        return None, "it is not a ledger jobledger can read"
    return ledger, None


def write_ledger(path: Path, ledger: Ledger, *, root: Path | None = None) -> None:
    """Write ``ledger`` to ``path`` atomically (never outside ``root``); a located error when the
    file cannot be written."""
    try:
        atomic_write(path, ledger.dumps(), root=root)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise JobledgerError(
            f"cannot write the ledger ({reason}); the previous file is unchanged", path=str(path)
        ) from exc
