"""``jobledger extract``: write the ledger for the tree, report what could not be followed."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from ..core.paths import Shown
from ..core.text import one_line, plural, say
from ..extract import extract
from ..gate.status import empty_scan
from ..ledger.model import Ledger
from ..ledger.store import write_ledger
from .common import add_cache_argument, config_from_args
from .options import add_format_argument, note
from .progress import TerminalProgress


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-o",
        "--output",
        metavar="PATH",
        help="where to write the ledger; '-' prints it (default: the configured ledger path)",
    )
    add_cache_argument(parser)
    parser.add_argument(
        "--progress",
        action="store_true",
        help="report files read, parsed and jobs found on stderr (default: only on a terminal, "
        "when the run takes more than a couple of seconds, and not with -q)",
    )
    add_format_argument(
        parser,
        ("text", "json"),
        note="; json: what was written and every problem, as one document on stdout (the "
        "ledger itself is written as JSON either way)",
    )


def problems_of(ledger: Ledger, shown: Shown | None = None) -> list[tuple[str, int, str]]:
    """Every problem as ``(path, line, message)``, in the ledger's stable order (paths named in
    a message from the current folder, with ``shown``; the path itself as recorded)."""

    def where(location: str) -> str:
        return location if shown is None else shown.location(location)

    found = [
        (item.path, item.line, item.message)
        for item in ledger.unsupported
        if item.accepted is None  # accepted on purpose: a notice of the gate, not a problem
    ]
    for job_id, rows in sorted(ledger.duplicate_ids().items()):
        places = ", ".join(where(row.location) for row in rows)
        for row in rows:
            found.append(
                (
                    row.path,
                    row.line,
                    f"duplicate job id {job_id!r} (registered at {places}); rename one of the "
                    "functions or give each a distinct registered name",
                )
            )
    return found


def problem_lines(ledger: Ledger, shown: Shown | None = None) -> list[str]:
    """Every problem as ``path:line: message`` (each path from the current folder, with
    ``shown``)."""
    lines: list[str] = []
    for path, line, message in problems_of(ledger, shown):
        first, _, fix = message.partition("\n")  # the fix, on a line of its own
        lines.append(f"{path if shown is None else shown.path(path)}:{line}: {first}")
        if fix:
            lines.append(f"  {' '.join(fix.split())}")
    return lines


def run(args: argparse.Namespace) -> int:
    if args.format == "json" and args.output == "-":
        raise ConfigError(
            "-o - prints the ledger and --format json prints a report of the run; give one, or "
            "-o PATH with --format json"
        )
    config = config_from_args(args)
    progress = TerminalProgress(forced=args.progress, quiet=args.quiet)
    extraction = extract(config, progress=progress)
    ledger = extraction.ledger
    progress.finish(jobs=len(ledger.jobs))
    for warning in extraction.warnings:
        say(one_line(f"warning: {warning}"), file=sys.stderr)
    empty = empty_scan(ledger, config)
    shown = Shown.here(config.root)
    if empty is not None:
        # Writing it would replace a good committed ledger with an empty one after a typo.
        if args.format == "json":
            problem = {"path": empty.path, "line": empty.line, "message": empty.message}
            _report_json(None, 0, [problem], extraction.warnings)
            return 1
        where = shown.location(empty.location)
        say(one_line(f"{where}: {empty.message} Nothing was written."), file=sys.stderr)
        return 1
    text = ledger.dumps()
    if args.output == "-":
        say(text, end="")
        target = "stdout"
    else:
        # -o is the operator's own choice; the configured path belongs to the tree and stays in it.
        path = Path(args.output) if args.output else config.ledger_path
        write_ledger(path, ledger, root=config.root, named_by_operator=bool(args.output))
        target = str(path) if args.output else shown.path(config.ledger_display)
    if args.format == "json":
        written = str(path) if args.output else config.ledger_display
        found = [_problem_json(at, line, message) for at, line, message in problems_of(ledger)]
        _report_json(written, len(ledger.jobs), found, extraction.warnings)
        return 1 if found else 0
    for line in problem_lines(ledger, shown):
        say(one_line(line), file=sys.stderr)
    count = len(problems_of(ledger))
    note(
        args,
        f"jobledger: wrote {target}: {plural(len(ledger.jobs), 'job')}, {plural(count, 'problem')}",
    )
    return 1 if count else 0


def _report_json(
    written: str | None, jobs: int, problems: list[dict[str, Any]], warnings: Sequence[str]
) -> None:
    """``--format json``: what was written (the ledger's path as configured, relative to the
    root, or ``-o``'s as given; ``null``: nothing), how many jobs, and every problem."""
    document = {
        "ledger": written,
        "jobs": jobs,
        "problems": problems,
        "warnings": list(warnings),
    }
    say(json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n", end="")


def _problem_json(path: str, line: int, message: str) -> dict[str, Any]:
    """A problem for CI: its first line as ``message``, the fix (when it has one) as ``fix``."""
    first, _, fix = message.partition("\n")
    return {"path": path, "line": line, "message": first, **({"fix": fix} if fix else {})}
