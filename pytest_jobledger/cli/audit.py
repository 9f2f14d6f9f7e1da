"""``jobledger audit``: print the trail of verdicts, or ``--verify`` its chain (exit 1 when broken).

It reads only the log (no extraction, no overlay), so it works on a copy of a log from anywhere.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from typing import Any

from .. import audit
from ..errors import JobledgerError
from ..text import one_line, say
from .common import config_from_args

NAME = "audit"
HELP = "print the trail of verdicts, or check that no line was edited, removed or reordered"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--job", metavar="ID", help="only the verdicts about this job")
    parser.add_argument("--tail", type=int, metavar="N", help="only the last N verdicts")
    parser.add_argument(
        "--verify",
        action="store_true",
        help="check the chain and the head; name the first broken line (exit 1)",
    )
    parser.add_argument("--json", action="store_true", help="a JSON document for tools")


def run(args: argparse.Namespace) -> int:
    if args.verify and (args.job is not None or args.tail is not None):
        raise JobledgerError("--verify checks the whole log; it takes no --job or --tail")
    if args.tail is not None and args.tail < 1:
        raise JobledgerError(f"--tail {args.tail}: give 1 or more")
    config = config_from_args(args)
    path = config.audit_log_path
    log = config.display(path)
    if args.verify:
        return _verify(audit.verify(path, root=config.root), log, as_json=args.json)
    lines = audit.read_lines(path, root=config.root)
    if args.job is not None:
        lines = [line for line in lines if line.record and line.record.get("job") == args.job]
    if args.tail is not None:
        lines = lines[-args.tail :]
    if args.json:
        document = {
            "log": log,
            "entries": [
                {"line": line.number, "sha256": line.sha256, "record": line.record}
                for line in lines
            ],
        }
        say(json.dumps(document, indent=2, sort_keys=True) + "\n", end="")
        return 0
    if not lines:
        say(one_line(f"{log}: no verdicts recorded" + (f" for {args.job}" if args.job else "")))
    for line in lines:
        say(entry_line(line.number, line.record))
    return 0


def entry_line(number: int, record: Mapping[str, Any] | None) -> str:
    """``12 2025-06-01T09:30:00.000Z blocked bulk-retry x4000 <job> by alice ...``: one verdict."""
    if record is None:
        return f"{number:>4}  (not an audit record: run `jobledger audit --verify`)"
    count = record.get("count")
    parts = [
        f"{number:>4}",
        str(record.get("time", "?")),
        str(record.get("verdict", "?")).upper(),
        str(record.get("action", "?")) + (f" x{count}" if count is not None else ""),
        str(record.get("job", "?")),
        f"by {record.get('actor', '?')}",
    ]
    if record.get("approved_by"):
        parts.append(f"approved-by {record['approved_by']} (self-reported)")
    if record.get("ticket"):
        parts.append(f"ticket {record['ticket']}")
    reasons = [
        reason
        for key in ("blockers", "review")
        if isinstance(record.get(key), list)
        for reason in record[key]
    ]
    if reasons:
        parts.append("(" + ", ".join(str(reason) for reason in reasons) + ")")
    return one_line("  ".join(parts))


def _verify(report: audit.Report, log: str, *, as_json: bool) -> int:
    if as_json:
        document = {
            "log": log,
            "ok": report.ok,
            "lines": report.lines,
            "head": report.head,
            "broken": report.broken,
            "reason": report.reason or None,
            "note": report.note or None,
        }
        say(json.dumps(document, indent=2, sort_keys=True) + "\n", end="")
    elif report.ok:
        say(one_line(f"{log}: {report.lines} lines, chain intact; head sha256 {report.head}"))
        if report.note:
            say(one_line(f"{log}: note: {report.note}"))
    else:
        where = f"{log}:{report.broken}" if report.broken else log
        say(one_line(f"{where}: {report.reason}"))
    return 0 if report.ok else 1
