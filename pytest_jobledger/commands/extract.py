"""``jobledger extract``: write the ledger for the tree, report what could not be followed."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..atomic import atomic_write
from ..errors import JobledgerError
from ..extract import extract_ledger
from ..model import Ledger
from ._common import config_from_args

NAME = "extract"
HELP = "parse the tree statically and write the job ledger (never imports the code)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-o",
        "--output",
        metavar="PATH",
        help="where to write the ledger; '-' prints it (default: the configured ledger path)",
    )


def problem_lines(ledger: Ledger) -> list[str]:
    """Every problem as ``path:line: message``, in the ledger's stable order."""
    lines = [f"{item.location}: {item.message}" for item in ledger.unsupported]
    for job_id, rows in sorted(ledger.duplicate_ids().items()):
        places = ", ".join(row.location for row in rows)
        for row in rows:
            lines.append(
                f"{row.location}: duplicate job id {job_id!r} (registered at {places}); "
                "rename one of the functions or give each a distinct registered name"
            )
    return lines


def run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    ledger = extract_ledger(config)
    text = ledger.dumps()
    if args.output == "-":
        sys.stdout.write(text)
        target = "stdout"
    else:
        path = Path(args.output) if args.output else config.ledger_path
        try:
            atomic_write(path, text)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise JobledgerError(
                f"cannot write the ledger ({reason}); the previous file is unchanged",
                path=str(path),
            ) from exc
        target = str(path)
    problems = problem_lines(ledger)
    for line in problems:
        print(line, file=sys.stderr)
    print(
        f"jobledger: wrote {target}: {len(ledger.jobs)} jobs, {len(problems)} problems",
        file=sys.stderr,
    )
    return 1 if problems else 0
