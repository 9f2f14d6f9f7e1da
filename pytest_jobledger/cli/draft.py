"""``jobledger draft``: ask a command of your choice for purpose drafts of the unsigned jobs.

The only place that runs a draft command. Before anything runs, it prints the command and where
it was configured: a ``draft_command`` in the repository's own pyproject.toml is that
repository's program, so running it on an untrusted checkout runs the pull request's code. The
gate, the plugin and the Action never call it.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from ..core.errors import ConfigError
from ..core.text import one_line
from ..core.text import say as say_line
from ..draft.request import DraftRequest, docstring_digest
from ..draft.runner import DEFAULT_TIMEOUT_S, DraftFailed, isolated, run_command
from ..draft.screen import Screen
from ..draft.store import Draft, DraftsError, add_drafts
from ..findings import JoinedJob
from ..project import Config
from ..session import Session
from .common import config_from_args
from .options import add_format_argument, note

PURPOSE = "purpose_accepted"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--command",
        metavar="CMD",
        help="the draft command, split like a shell would but never run by one "
        "(default: draft_command in [tool.jobledger])",
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="print what would be sent to the command, run nothing, write nothing",
    )
    parser.add_argument(
        "--refresh",
        action="store_true",
        help="draft again the jobs that already have a draft (kept by default)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT_S,
        metavar="SECONDS",
        help=f"kill the command (and its process group) after this long, per job "
        f"(default: {DEFAULT_TIMEOUT_S:g})",
    )
    add_format_argument(parser, ("text",), note="; --dry-run prints each request as JSON")


def say(text: str) -> None:
    """A notice on stderr (stdout carries only what --dry-run would send)."""
    say_line(one_line(text), file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    command, origin = _command(args, config)
    if command is None:
        say(
            "jobledger draft: no draft command, so nothing was run or written. Give one with "
            '--command "my-model-cli --max-words 60" or set draft_command = "..." in '
            "[tool.jobledger]; it reads one JSON object (id, function, module, queue, "
            "docstring) on stdin and prints the draft."
        )
        return 2
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise ConfigError(f"the draft command cannot be split: {error}") from None
    if not argv:
        raise ConfigError("the draft command is empty")
    if not args.timeout > 0:
        raise ConfigError("--timeout must be a positive number of seconds")
    program = Path(argv[0]).name
    verb = "would run" if args.dry_run else "runs"
    # What is shown is what runs: a Python interpreter with -I, from a fresh scratch folder.
    shown = shlex.join(isolated(argv, config.root))
    say(
        f"jobledger draft: {verb} {shown} ({origin}) from a fresh scratch folder, a fresh process "
        "per job whose purpose_accepted is unsigned, never through a shell. It is sent each "
        "job's id, function, module, queue and docstring, nothing else. A draft_command from a "
        "repository you do not trust is that repository's program: check it first."
    )
    with Screen() as screen:
        return _draft_jobs(args, config, argv, program, screen)


def _command(args: argparse.Namespace, config: Config) -> tuple[str | None, str]:
    if args.command is not None:
        return args.command, "given with --command"
    where = config.display(config.source) if config.source is not None else "the configuration"
    return config.drafts.command, f"draft_command in {where} [tool.jobledger]"


def _draft_jobs(
    args: argparse.Namespace, config: Config, argv: list[str], program: str, screen: Screen
) -> int:
    display = config.drafts.path
    session = Session.open(config)
    existing = session.drafts
    if isinstance(existing, DraftsError):
        raise existing
    rows = [row for row in session.gate.jobs if not _purpose_signed(row)]
    made: dict[str, Draft] = {}
    failed = skipped = kept = 0
    try:
        for row in sorted(rows, key=lambda row: row.job.id):
            job = row.job
            digest = docstring_digest(job.docstring)
            old = existing.get(job.id)
            if old is not None and not args.refresh:
                state = "stale, the docstring changed since" if old.stale(digest) else "current"
                note(
                    args, f"{job.id}: kept the existing draft ({state}); --refresh drafts it again"
                )
                kept += 1
                continue
            request = DraftRequest.from_job(job)
            reason = screen.reason(request)
            if reason is not None:
                say(f"{job.id}: skipped, nothing was sent: {reason}")
                skipped += 1
                continue
            if args.dry_run:
                say_line(one_line(request.payload().decode("utf-8").rstrip("\n")))
                continue
            try:
                text = run_command(argv, request.payload(), cwd=config.root, timeout=args.timeout)
            except DraftFailed as error:
                say(f"{job.id}: no draft: {error}")
                failed += 1
                continue
            made[job.id] = Draft(job.id, text, program, digest)
            note(args, f"{job.id}: drafted ({len(text)} characters, unverified)")
    finally:
        if made:  # what finished is kept, even when the run is interrupted
            add_drafts(config, made)
    noun = "purpose" if len(rows) == 1 else "purposes"
    if args.dry_run:
        done = f"{len(rows) - kept - skipped} would be sent, {kept} kept, {skipped} skipped"
        target = "nothing was run or written (dry run)"
    else:
        done = f"{len(made)} drafted, {kept} kept, {skipped} skipped, {failed} failed"
        target = f"wrote {len(made)} to {display}" if made else "nothing written"
    say(f"jobledger draft: {len(rows)} unsigned {noun}: {done}; {target}")
    return 1 if failed else 0


def _purpose_signed(row: JoinedJob) -> bool:
    check = next((check for check in row.checks if check.cell == PURPOSE), None)
    return check is not None and check.finding is None and check.skipped is None
