"""``jobledger list``: one line per job of the committed ledger, with its signed policy and state.

The module is not called ``list`` so that ``from . import ...`` never hides the builtin.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..core.text import clip, one_line, say
from ..gate.cells import normal_text
from ..gate.committed import Snapshot
from ..memo.redaction import remembered
from ..project import Config
from ..session import Session
from ..verdict import JobFacts, from_snapshot
from .cards import ledger_line, overlay_line
from .common import add_memo_argument, config_from_args
from .observations import observed
from .options import TEXT_JSON, add_format_argument

#: The two policy columns are what a person signed, not what the code proves: the header says so.
COLUMNS = ("ID", "QUEUE", "RETRIES", "IDEMPOTENT (SIGNED)", "PAGING OWNER (SIGNED)", "STATE")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--unsigned", action="store_true", help="only jobs with a failing cell")
    parser.add_argument("--queue", metavar="Q", help="only jobs the ledger puts on queue Q")
    parser.add_argument("--owner", metavar="O", help="only jobs whose signed paging owner is O")
    add_format_argument(parser, TEXT_JSON)
    add_memo_argument(parser)


def run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    with remembered(config):
        return _run(args, config)


def _run(args: argparse.Namespace, config: Config) -> int:
    snapshot = Session.open(config, baseline=False, memos=True).committed_view
    rows = [row for row in job_rows(snapshot) if _wanted(row, args)]
    filters = {"unsigned": bool(args.unsigned), "queue": args.queue, "owner": args.owner}
    observed(config, snapshot, args, command="list", job=None, filters=filters, shown=len(rows))
    if args.format == "json":
        document = {**sources_json(snapshot), "jobs": rows}
        say(json.dumps(document, indent=2, sort_keys=True) + "\n", end="")
        return 0
    for line in table(snapshot, rows):
        say(line)
    return 0


def job_rows(snapshot: Snapshot) -> list[dict[str, Any]]:
    """One row per job: ledger facts as the code says, policy cells as signed (``None``: not)."""
    rows = []
    for job_id in snapshot.ids:
        facts = from_snapshot(snapshot, job_id)
        assert facts is not None
        failing = len(facts.failing)
        rows.append(
            {
                "id": job_id,
                "queue": facts.job.queue,
                "max_retries": facts.job.max_retries,
                "idempotent": facts.signed("idempotent"),
                "paging_owner": facts.signed("paging_owner"),
                "signed": facts.gate_passes,
                "failing": failing,
                "state": _state(facts, failing),
            }
        )
    return rows


def sources_json(snapshot: Snapshot) -> dict[str, Any]:
    """What the output was read from: the same block in ``list``, ``show`` and ``verdict``."""
    config = snapshot.config
    error = snapshot.overlay_error
    return {
        "ledger": {
            "path": config.ledger_display,
            "origin": snapshot.origin,
            "stale": snapshot.stale,
            "sha256": snapshot.ledger_sha256,
        },
        "overlay": {
            "path": config.overlay_display,
            "sha256": snapshot.overlay_sha256,
            "error": str(error) if error is not None else None,
        },
    }


def table(snapshot: Snapshot, rows: list[dict[str, Any]]) -> list[str]:
    """The two source lines (which ledger, which overlay; stale or not), then the table."""
    cells = [
        [
            one_line(row["id"]),
            _show(row["queue"]),
            _show(row["max_retries"]),
            _show(row["idempotent"], "unsigned"),
            _show(row["paging_owner"], "unsigned"),
            row["state"],
        ]
        for row in rows
    ]
    widths = [max(len(text) for text in column) for column in zip(COLUMNS, *cells, strict=True)]
    lines = [ledger_line(snapshot), overlay_line(snapshot)]
    for values in (list(COLUMNS), *cells):
        lines.append(
            "  ".join(
                text.ljust(width) for text, width in zip(values, widths, strict=True)
            ).rstrip()
        )
    total = len(snapshot.ids)
    lines.append(f"{len(rows)} of {total} jobs" if len(rows) != total else f"{total} jobs")
    return lines


def _state(facts: JobFacts, failing: int) -> str:
    if facts.unreadable is not None:
        return "overlay unreadable"
    if not failing:
        return "signed"
    noun = "cell fails" if failing == 1 else "cells fail"
    return f"{failing} {noun}"


def _show(value: Any, missing: str = "?") -> str:
    if value is None:
        return missing
    return clip(one_line(str(value)), 40)


def _wanted(row: dict[str, Any], args: argparse.Namespace) -> bool:
    if args.unsigned and row["signed"]:
        return False
    if args.queue is not None and row["queue"] != args.queue:
        return False
    if args.owner is not None:
        owner = row["paging_owner"]
        if not isinstance(owner, str) or normal_text(owner) != normal_text(args.owner):
            return False
    return True
