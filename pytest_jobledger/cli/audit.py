"""``jobledger audit``: print the trail of verdicts, or ``--verify`` its chain (exit 1 when broken);
``audit init`` prepares a database store and writes any empty trail's identity (its first line),
``audit copy`` moves a file trail into one.

It reads only the trail (no extraction, no overlay), so it works on a copy of a log from anywhere.
The trail is the store ``JOBLEDGER_AUDIT_URL`` names, else ``[tool.jobledger] audit_log``. A
store that cannot be reached is an error (exit 2), never an empty trail.
"""

from __future__ import annotations

import argparse
import json
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .. import audit
from ..audit.chain import line_sha256
from ..core import environment
from ..core.errors import JobledgerError
from ..core.paths import Shown
from ..core.text import clip, one_line, say
from .common import config_from_args
from .options import TEXT_JSON, add_format_argument


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "command",
        nargs="?",
        choices=("init", "copy"),
        help="init: create a database store's tables (idempotent, versioned); copy: move the "
        "configured file trail into the store --to names (default: JOBLEDGER_AUDIT_URL)",
    )
    parser.add_argument(
        "--to",
        metavar="URL",
        help="where `audit copy` writes: sqlite:///PATH or postgresql://... (better: leave it "
        "out and set JOBLEDGER_AUDIT_URL, so no password is in your shell history)",
    )
    parser.add_argument("--job", metavar="ID", help="only the verdicts about this job")
    parser.add_argument("--tail", type=int, metavar="N", help="only the last N verdicts")
    parser.add_argument(
        "--verify",
        action="store_true",
        help="check the chain and the head; name the first broken line (exit 1)",
    )
    add_format_argument(parser, TEXT_JSON)


def run(args: argparse.Namespace) -> int:
    if args.command is not None and (
        args.verify or args.job is not None or args.tail is not None or args.format != "text"
    ):
        raise JobledgerError(
            f"audit {args.command} takes no --verify, --job, --tail or --format/--json"
        )
    if args.to is not None and args.command != "copy":
        raise JobledgerError("--to names where `audit copy` writes; it goes with copy only")
    if args.verify and (args.job is not None or args.tail is not None):
        raise JobledgerError("--verify checks the whole log; it takes no --job or --tail")
    if args.tail is not None and args.tail < 1:
        raise JobledgerError(f"--tail {args.tail}: give 1 or more")
    config = config_from_args(args)
    if args.command == "copy":
        return _copy(config.verdict.audit_log, config.root, args.to)
    store = audit.open_store(config.verdict.audit_log, root=config.root)
    log = store.display
    if store.target.kind == "file" and args.format == "text":
        # A file trail is named from the current folder, so `log:line` opens; JSON keeps the
        # configured, root-relative name (and a database's URL is never a path).
        log = Shown.here(config.root).path(log)
    if args.command == "init":
        say(one_line(f"{log}: {store.init()}"))
        identity, wrote = audit.identify(store, by="audit init")
        opened = " (written as its first line)" if wrote else ""
        say(one_line(f"{log}: the trail's identity is {identity}{opened}"))
        return 0
    if args.verify:
        report = audit.anchored(store, store.verify())  # and this machine's record of its head
        return _verify(report, log, as_json=args.format == "json")
    lines = store.lines()
    if args.job is not None:
        lines = [line for line in lines if line.record and line.record.get("job") == args.job]
    if args.tail is not None:
        lines = lines[-args.tail :]
    if args.format == "json":
        document = {
            "log": log,
            "entries": [
                {
                    "line": line.number,
                    "sha256": line.sha256,
                    "record": line.record,
                    **({} if line.committed else {"committed": False}),
                }
                for line in lines
            ],
        }
        say(json.dumps(document, indent=2, sort_keys=True) + "\n", end="")
        return 0
    if not lines:
        say(one_line(f"{log}: no verdicts recorded" + (f" for {args.job}" if args.job else "")))
    for text in listing(lines):
        say(text)
    return 0


#: The widest a listing's line grows (a job id past :data:`JOB_WIDTH` is clipped in its column;
#: ``--json`` has every field whole).
WIDTH = 120
JOB_WIDTH = 56


def listing(lines: Sequence[Any]) -> list[str]:
    """The trail as aligned columns (line, time, answer, action, job, actor), each line at most
    :data:`WIDTH` characters; a verdict's reasons on indented lines under it."""
    rows = [(line, entry_fields(line.number, line.record)) for line in lines]
    widths = [
        max((len(fields[column]) for _, fields in rows if len(fields) > column), default=0)
        for column in range(5)
    ]
    widths[4] = min(widths[4], JOB_WIDTH)
    out: list[str] = []
    for line, fields in rows:
        if len(fields) == 1:
            out.append(one_line(fields[0]))
            continue
        head = [
            fields[0].rjust(widths[0]),
            *(f.ljust(w) for f, w in zip(fields[1:4], widths[1:4], strict=True)),
        ]
        head.append(clip(fields[4], JOB_WIDTH).ljust(widths[4]))
        mark = [] if line.committed else ["(not committed: no verdict was given)"]
        out.append(one_line("  ".join([*head, *fields[5:6], *mark])).rstrip())
        notes = fields[6:]
        if not line.committed:
            notes = [*notes, "the next append takes this line back"]
        indent = " " * (widths[0] + 2)
        for note in notes:
            out.extend(
                textwrap.wrap(
                    one_line(note),
                    WIDTH,
                    initial_indent=indent,
                    subsequent_indent=indent + "  ",
                    break_long_words=True,
                    break_on_hyphens=False,  # a reason code reads whole
                )
            )
    return out


def _copy(audit_log: str, root: Path, to: str | None) -> int:
    """The configured file trail, verified, written verbatim into an empty store, verified there
    too; nothing is copied from a broken trail."""
    source = audit.store_for(
        audit.target_of(audit_log, root=root, origin="[tool.jobledger] audit_log"), root=root
    )
    if to is None:
        to = environment.read(environment.AUDIT_URL)
        if not to:
            raise JobledgerError(f"audit copy: give --to URL or set {audit.ENV_URL}")
        target = audit.open_store(audit_log, root=root)
    else:
        target = audit.store_for(
            audit.target_of(to, root=root, origin="--to", operator=True), root=root
        )
    if (target.target.kind, target.target.location) == (source.target.kind, audit_log):
        raise JobledgerError(f"audit copy: {target.display} is the trail itself")
    before = source.verify()
    if not before.ok:
        raise audit.AuditError(
            f"the trail is broken at line {before.broken}: {before.reason}; nothing was copied",
            path=source.display,
        )
    lines = source.raw()
    target.load(lines)
    after = target.verify()
    expected = line_sha256(lines[-1]) if lines else audit.GENESIS
    if not after.ok or (after.lines, after.head) != (len(lines), expected):
        raise audit.AuditError(
            f"the copy does not verify ({after.reason or 'its head differs from the source'})",
            path=target.display,
        )
    say(
        one_line(
            f"{target.display}: copied {after.lines} events from {source.display}; chain "
            f"verified on both sides; head sha256 {after.head}"
        )
    )
    return 0


def entry_fields(number: int, record: Mapping[str, Any] | None) -> list[str]:
    """One verdict's columns: line, time, answer, action, job, actor; then its notes (approver,
    ticket, reasons). A line that is no record is one field."""
    if record is None:
        return [f"{number:>4}  (not an audit record: run `jobledger audit --verify`)"]
    if record.get("event") == "trail":  # the trail's identity: no job, no actor
        opened = f"TRAIL {record.get('trail_id', '?')} opened by {record.get('opened_by', '?')}"
        return [one_line(f"{number:>4}  {record.get('time', '?')}  {opened}")]
    count = record.get("count")
    fields = [
        f"{number:>4}",
        str(record.get("time", "?")),
        _answer(record),
        f"{record.get('batches', '?')} batch(es)"
        if record.get("event") == "reconciliation"
        else str(record.get("action", "?")) + (f" x{count}" if count is not None else ""),
        str(record.get("job", "?")),
        f"by {record.get('actor', '?')}",
    ]
    notes = []
    if record.get("approved_by"):
        notes.append(f"approved-by {record['approved_by']} (self-reported)")
    if record.get("ticket"):
        notes.append(f"ticket {record['ticket']}")
    reasons = [
        reason
        for key in ("blockers", "review")
        if isinstance(record.get(key), list)
        for reason in record[key]
    ]
    if reasons:
        notes.append("(" + ", ".join(str(reason) for reason in reasons) + ")")
    if notes:
        fields.append("; ".join(notes))
    return [one_line(field) for field in fields]


def _answer(record: Mapping[str, Any]) -> str:
    """What the line says: a verdict's answer, or the kind of event and its result."""
    kind = record.get("event", "verdict")
    if kind == "plan":
        return f"PLAN {str(record.get('plan_sha256', '?'))[:12]}"
    if kind == "approval-check":
        state = "verified" if record.get("verified") is True else "refused"
        return f"APPROVAL-CHECK {state} {record.get('principal') or ''}".rstrip()
    if kind == "reconciliation":
        return f"RECONCILED {str(record.get('outcome', '?')).upper()}"
    if kind == "observation":
        return f"OBSERVED {record.get('command', '?')}"
    if kind == "refusal":
        return "REFUSED"
    return str(record.get("verdict", "?")).upper()


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
