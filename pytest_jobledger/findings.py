"""Findings: the join's output, the one thing every presenter reads.

A finding is a single failing (or passing) cell with a located, one-paragraph message that says how
to fix it. Presenters (pytest items, CLI text/JSON, GitHub annotations, SARIF, the summary) only
format findings; they never parse sources or overlays themselves.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


class Kind(str, enum.Enum):
    """Why a cell fails. The value is the stable name used in JSON output and titles."""

    UNSIGNED = "unsigned"
    NOT_YES_NO = "not-yes-no"
    NOT_TEXT = "not-text"
    ORPHAN = "orphan"
    LANE_MIXING = "lane-mixing"
    UNKNOWN_KEY = "unknown-key"
    UNSUPPORTED = "unsupported"
    DUPLICATE_ID = "duplicate-id"
    OVERLAY_INVALID = "overlay-invalid"
    LEDGER_STALE = "ledger-stale"


def one_line(text: str) -> str:
    """``text`` with control characters escaped (``\\n``), for terminal and log output.

    Job ids and YAML keys come from the scanned repository, which may be hostile: a raw newline
    would split a one-line-per-finding report and could start a forged CI workflow command.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode() for ch in text)


@dataclass(frozen=True)
class Finding:
    """One failing cell (or session-level status) with where it is and how to fix it.

    ``job`` and ``cell`` name the item (``overlay::job::cell``); ``path``/``line`` point at the line
    a reviewer must look at, relative to the project root with ``/`` separators.
    """

    kind: Kind
    job: str
    cell: str
    path: str
    line: int
    message: str

    @property
    def location(self) -> str:
        return f"{self.path}:{self.line}"

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.job,
            "cell": self.cell,
            "kind": self.kind.value,
            "path": self.path,
            "line": self.line,
            "message": self.message,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Finding:
        """The inverse of :meth:`to_json` (for presenters that receive findings from a report)."""
        return cls(
            kind=Kind(data["kind"]),
            job=str(data["id"]),
            cell=str(data["cell"]),
            path=str(data["path"]),
            line=int(data["line"]),
            message=str(data["message"]),
        )
