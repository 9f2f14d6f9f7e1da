"""``jobledger extract``: write the ledger for the tree, report what could not be followed."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..extract import extract
from ..gate.status import empty_scan
from ..ledger.model import Ledger
from ..ledger.store import write_ledger
from ..paths import Shown
from ..text import one_line, say
from .common import add_cache_argument, config_from_args
from .options import add_format_argument, note
from .progress import TerminalProgress

NAME = "extract"
HELP = "parse the tree statically and write the job ledger (never imports the code)"


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
        ("text",),
        note="; the ledger itself is JSON (`check --format json` lists its problems)",
    )


def problem_lines(ledger: Ledger, shown: Shown | None = None) -> list[str]:
    """Every problem as ``path:line: message``, in the ledger's stable order (each path from the
    current folder, with ``shown``)."""

    def where(location: str) -> str:
        return location if shown is None else shown.location(location)

    lines = [f"{where(item.location)}: {item.message}" for item in ledger.unsupported]
    for job_id, rows in sorted(ledger.duplicate_ids().items()):
        places = ", ".join(where(row.location) for row in rows)
        for row in rows:
            lines.append(
                f"{where(row.location)}: duplicate job id {job_id!r} (registered at {places}); "
                "rename one of the functions or give each a distinct registered name"
            )
    return lines


def run(args: argparse.Namespace) -> int:
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
    problems = problem_lines(ledger, shown)
    for line in problems:
        say(one_line(line), file=sys.stderr)
    note(args, f"jobledger: wrote {target}: {len(ledger.jobs)} jobs, {len(problems)} problems")
    return 1 if problems else 0
