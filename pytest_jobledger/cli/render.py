"""``jobledger render``: write the runbook, or refuse while anything is unsigned.

Without ``--preview`` the page is written only when every check of the gate passes; otherwise
nothing is written and the findings that block it are printed (exit 1). ``--preview`` renders
anyway, every unsigned cell marked, and is never written to the configured runbook.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..core.atomic import atomic_write
from ..core.errors import ConfigError, JobledgerError
from ..core.paths import Shown
from ..core.text import one_line
from ..core.text import say as say_line
from ..draft.request import docstring_digest
from ..draft.store import DraftsError
from ..findings import GateResult
from ..ledger.diff import stale_line
from ..project import Config
from ..project.files import read_file
from ..reporters.runbook import FORMATS, DraftNote, blockers, render_runbook
from ..reporters.text import format_finding
from ..session import Session
from .common import config_from_args
from .options import add_format_argument, note

#: How many blocking findings a refusal prints before it says how many more there are.
SHOWN = 5


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-o",
        "--output",
        metavar="PATH",
        help="where to write it; '-' prints it (default: the configured runbook, docs/jobs.md)",
    )
    add_format_argument(parser, FORMATS, default="markdown", note="; json needs -o")
    parser.add_argument(
        "--preview",
        action="store_true",
        help="render while cells are unsigned, each marked; needs -o (never the runbook itself)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 when the committed runbook differs from a fresh render",
    )


def say(text: str) -> None:
    say_line(one_line(text), file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    _refuse_bad_combinations(args)
    session = Session.open(config)
    result = session.gate
    if not args.preview and refused(result, config):
        return 1
    if args.check:
        return _check(args, session, result)
    drafts = _drafts(session, args) if args.preview else None
    text = render_runbook(result, config, fmt=args.format, preview=args.preview, drafts=drafts)
    if args.output == "-":
        say_line(text, end="")
        return 0
    # -o is the operator's own choice; the configured runbook belongs to the tree and stays in it.
    path = Path(args.output) if args.output else config.runbook_path
    try:
        atomic_write(path, text, root=config.root, named_by_operator=bool(args.output))
    except OSError as error:
        raise JobledgerError(
            f"cannot write the runbook ({error.strerror or error}); the previous file is unchanged",
            path=str(path),
        ) from None
    label = str(path) if args.output else Shown.here(config.root).path(config.display(path))
    note(args, f"jobledger: wrote {label}: {len(result.jobs)} jobs")
    return 0


def _refuse_bad_combinations(args: argparse.Namespace) -> None:
    if args.check and (args.preview or args.output == "-"):
        raise ConfigError(
            "--check compares the written runbook; it takes neither --preview nor -o -"
        )
    if args.check and args.format != "markdown":
        raise ConfigError("--check compares the Markdown runbook; leave out --format")
    if args.preview and not args.output:
        raise ConfigError(
            "a preview is never written over the runbook; give -o - to print it or -o PATH"
        )
    if args.format == "json" and not args.output:
        raise ConfigError("the configured runbook is Markdown; give -o - or -o PATH for JSON")


def refused(result: GateResult, config: Config) -> bool:
    """Print why the runbook is not published, when something blocks it."""
    blocking = blockers(result)
    if not blocking:
        return False
    shown = Shown.here(config.root)
    findings = [check.finding for check in blocking if check.finding is not None]
    ids = {row.job.id for row in result.jobs}
    cells = sum(1 for check in blocking if check.job in ids)
    others = len(blocking) - cells
    say(
        f"jobledger: the runbook was not written: {cells} policy cell{'s' if cells != 1 else ''} "
        f"and {others} other check{'s' if others != 1 else ''} fail; unsigned work never ships "
        "in a page"
    )
    known = sum(1 for finding in findings if finding.baselined)
    if known:
        say(
            f"jobledger: {known} of them {'are' if known != 1 else 'is'} in the baseline "
            f"{shown.path(config.display(config.baseline_path))}; the runbook is published only "
            "once the baseline holds nothing"
        )
    for finding in findings[:SHOWN]:
        say(format_finding(finding, shown))
    if len(findings) > SHOWN:
        say(f"... and {len(findings) - SHOWN} more (`jobledger check` lists every one)")
    say(
        "jobledger: sign them in the overlay (or run `jobledger render --preview -o -` to see the "
        "page with each of them marked)"
    )
    return True


def _check(args: argparse.Namespace, session: Session, result: GateResult) -> int:
    config = session.config
    expected = render_runbook(result, config)
    path = Path(args.output) if args.output else config.runbook_path
    label = str(path) if args.output else Shown.here(config.root).path(config.display(path))
    read = read_file("runbook", config, path=path) if args.output else session.runbook
    if not read.exists:
        say(f"jobledger: {label} does not exist; run `jobledger render` and commit it")
        return 1
    if read.text is None and read.raw is not None:  # not UTF-8: no page we wrote
        say(f"{label}:1: {read.reason}; run `jobledger render` and commit it")
        return 1
    if read.text is None:
        raise JobledgerError(f"cannot read the runbook: {read.reason}", path=label)
    line = stale_line(read.text, expected)
    if line is None:
        note(args, f"jobledger: {label} is up to date")
        return 0
    say(f"{label}:{line}: differs from a fresh render; run `jobledger render` and commit it")
    return 1


def _drafts(session: Session, args: argparse.Namespace) -> dict[str, DraftNote]:
    """The drafts a preview may show, each marked stale when its docstring changed since."""
    drafts = session.drafts
    if isinstance(drafts, DraftsError):
        note(args, f"jobledger: {drafts}; the preview shows no drafts")
        return {}
    docstrings = {row.job.id: row.job.docstring for row in session.gate.jobs}
    return {
        job: DraftNote(draft.text, draft.program, draft.stale(docstring_digest(docstrings[job])))
        for job, draft in drafts.items()
        if job in docstrings
    }
