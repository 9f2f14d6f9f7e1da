"""The committed ledger file: read as text (for freshness) or as a :class:`Ledger` (for evidence),
and a fresh ledger written in its place.

Reading never fails the caller: the gate and the stub both go on without a committed ledger, so
a missing file is ``None`` and an unreadable one comes with the reason.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..core.atomic import atomic_write
from ..core.errors import JobledgerError
from ..core.readers import Unreadable, parse_json
from .model import Ledger, NotALedger


def parse_ledger(text: str) -> tuple[Ledger | None, str | None]:
    """``text`` as a :class:`Ledger`, or ``None`` and why not, in words that tell a file that is
    not JSON at all (a merge conflict, an edit by hand) from JSON that is not a ledger."""
    try:
        data = parse_json(text)
    except Unreadable as exc:
        problem = exc.problem
        if problem.reason == "deep":
            return None, "its brackets nest too deeply to be a ledger (not a file jobledger wrote)"
        if problem.reason == "syntax":
            return None, (
                f"it is not valid JSON (line {problem.line}: {problem.detail}); a merge conflict "
                "or an edit by hand?"
            )
        return None, (
            f"it cannot be read (line {problem.line}: {problem.detail}); not a file jobledger "
            "wrote: was it edited by hand?"
        )
    if not isinstance(data, dict) or "jobs" not in data:
        return None, "it is JSON but not a ledger (no `jobs` list at the top)"
    try:
        return Ledger.from_json(data), None
    except NotALedger as exc:
        line = _job_line(text, exc.job)
        where = f"line {line}, " if line else ""
        return None, (
            "it is JSON but not a ledger this version of jobledger can read (schema_version "
            f"{data.get('schema_version')!r}; {where}{exc.detail}); was it edited by hand? "
            "Run `jobledger extract` to write it again"
        )
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        version = data.get("schema_version")
        return None, (
            f"it is JSON but not a ledger this version of jobledger can read (schema_version "
            f"{version!r}); was it edited by hand?"
        )


def _job_line(text: str, job: str | None) -> int | None:
    """The line where the job ``job`` is written (its ``"id"``), for the message."""
    if job is None:
        return None
    at = text.find(f'"id": {json.dumps(job, ensure_ascii=False)}')
    return text.count("\n", 0, at) + 1 if at >= 0 else None


def write_ledger(
    path: Path, ledger: Ledger, *, root: Path, named_by_operator: bool = False
) -> None:
    """Write ``ledger`` to ``path`` atomically (never outside ``root`` unless the operator named
    the path); a located error when the file cannot be written."""
    try:
        atomic_write(path, ledger.dumps(), root=root, named_by_operator=named_by_operator)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise JobledgerError(
            f"cannot write the ledger ({reason}); the previous file is unchanged", path=str(path)
        ) from exc
