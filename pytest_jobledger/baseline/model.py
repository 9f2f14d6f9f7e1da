"""What the baseline holds, and its file's exact text.

An entry is one failing gate item, ``(job, cell, kind)``: the item's name and why it fails. The
file is JSON with sorted keys, one entry per line, sorted, and a trailing newline, so the same
failures always give the same bytes and fixing one cell deletes one line in review.

Status items (the overlay parses, the ledger is fresh, the scan found jobs, the roster reads, the
runbook is fresh, the base is readable) are never baselined: they are not legacy debt but the
gate's own footing, and a baseline that hid them would hide every cell behind them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from ..core.text import escape_surrogates
from ..findings import STATUS_JOB, Finding, GateResult, Kind

FORMAT = "jobledger-baseline"
SCHEMA_VERSION = 1

#: Kinds only a status item has: an entry of one of these is refused, never matched.
STATUS_KINDS = frozenset(
    {
        Kind.OVERLAY_INVALID,
        Kind.LEDGER_STALE,
        Kind.OWNERS_INVALID,
        Kind.RUNBOOK_STALE,
        Kind.NO_JOBS,
        Kind.BASELINE_STALE,
        Kind.BASELINE_GROWN,
    }
)


@dataclass(frozen=True, order=True)
class Entry:
    """One known failure: the item ``job::cell`` fails as ``kind``."""

    job: str
    cell: str
    kind: Kind

    @property
    def name(self) -> str:
        return f"{self.job}::{self.cell}"

    def to_json(self) -> dict[str, str]:
        return {"id": self.job, "cell": self.cell, "kind": self.kind.value}


@dataclass(frozen=True)
class Baseline:
    """The entries of one baseline file, sorted, each with its line in the file (``lines``)."""

    entries: tuple[Entry, ...] = ()
    lines: tuple[int, ...] = ()
    text: str | None = None
    """The file's text as read (``None`` for a baseline built in memory)."""

    @classmethod
    def of(cls, entries: Iterable[Entry]) -> Baseline:
        ordered = tuple(sorted(set(entries)))
        return cls(ordered, tuple(range(3, 3 + len(ordered))))

    def line_map(self) -> dict[Entry, int]:
        """Each entry's line in the file (built once per use: a baseline may be long)."""
        return dict(zip(self.entries, self.lines, strict=False))

    def dumps(self) -> str:
        """The file's exact text: one entry per line, sorted, sorted keys, trailing newline."""
        rows = [
            "    " + json.dumps(entry.to_json(), sort_keys=True, ensure_ascii=False)
            for entry in sorted(self.entries)
        ]
        body = "[\n" + ",\n".join(rows) + "\n  ]" if rows else "[]"
        text = (
            "{\n"
            f'  "entries": {body},\n'
            f'  "format": {json.dumps(FORMAT)},\n'
            f'  "schema_version": {SCHEMA_VERSION}\n'
            "}\n"
        )
        return escape_surrogates(text)


def baselineable(finding: Finding) -> bool:
    """Whether ``finding`` is a failure the baseline may record: an error of a gate item that is
    not a status item (and not the baseline's own staleness)."""
    return (
        finding.level.fails
        and finding.job != STATUS_JOB
        and finding.kind not in STATUS_KINDS
        and not finding.baselined
    )


def current_entries(result: GateResult) -> tuple[Entry, ...]:
    """Every failure of ``result`` (a gate run without the baseline applied) as entries, sorted."""
    return Baseline.of(
        Entry(finding.job, finding.cell, finding.kind)
        for finding in result.findings
        if baselineable(finding)
    ).entries
