"""``jobledger stub``: add a placeholder overlay entry for every unsigned job, touching no byte.

It also adds the cells an entry lacks when ``required_cells`` grew; ``--rename`` changes one
entry's key and ``--quote-yes-no`` the quoting of plain yes/no values, and nothing else.

The core (:func:`pytest_jobledger.stub.plan.stub_overlay`) is pure; this module reads the fresh
ledger, the committed ledger (the rename evidence) and the overlay, and writes the result
atomically while holding the overlay's lock, so two stubs at once, or a crash mid-write, never
lose a human edit.
"""

from __future__ import annotations

import argparse
import posixpath
import re
import shlex
import sys
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

from ..core.atomic import atomic_write, locked
from ..core.errors import OverlayError
from ..core.paths import Shown
from ..core.text import one_line, say
from ..extract import extract_ledger
from ..ledger.model import Ledger
from ..ledger.store import parse_ledger
from ..overlay.reader import refused_overlay
from ..project import Config
from ..project.files import ProjectFile, read_file
from ..project.records import OVERLAY_BYTES_CEILING
from ..stub.memo import Memo, open_memo
from ..stub.result import StubResult
from ..stub.swap import write_unless_changed
from .common import add_cache_argument, config_from_args
from .options import add_format_argument

#: Runs right before the new overlay is swapped in: only tests set it, to save the overlay there
#: (an editor's save landing inside the rename) and prove the save is kept.
_BEFORE_SWAP: Callable[[], None] | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--check",
        action="store_true",
        help="change nothing; exit 1 if the stub would change the overlay (for pre-commit)",
    )
    parser.add_argument(
        "--renames",
        action="store_true",
        help="also move a signed entry to its job's new id when the rename is unambiguous",
    )
    parser.add_argument(
        "--rename",
        nargs=2,
        metavar=("OLD_ID", "NEW_ID"),
        help="move the signed entry of the orphaned OLD_ID to the job NEW_ID by hand (its "
        "comments and bytes kept, only the key changed)",
    )
    parser.add_argument(
        "--quote-yes-no",
        action="store_true",
        help='write unquoted yes/no cell values as "yes"/"no", so YAML 1.1 readers (PyYAML) '
        "read strings too; only those values change",
    )
    add_cache_argument(
        parser,
        help="extract without the content cache, and parse the overlay even when this machine's "
        "signed memo says the last run with these exact inputs had nothing to do",
    )
    add_format_argument(parser, ("text",))


def read_overlay(config: Config, *, limit: int | None = None) -> str | None:
    """The overlay's exact text (no newline translation), or ``None`` when there is no file."""
    read = read_file("overlay", config, limit=limit)
    if read.exists and read.exact is None:
        error = refused_overlay(read)
        raise OverlayError(
            f"{error.message}; nothing was written", path=error.path, line=error.line
        )
    return read.exact


def read_previous(config: Config, read: ProjectFile) -> Ledger | None:
    """The committed ledger as the one reader read it, if it is a readable one: where an
    orphan's old name is found; else a warning that renames go undetected."""
    ledger: Ledger | None = None
    problem = read.refused
    if read.text is not None:
        ledger, problem = parse_ledger(read.text)
    if problem is not None:
        say(
            one_line(
                f"jobledger: {config.files.ledger}: cannot read the committed ledger ({problem}); "
                "renames cannot be detected this time"
            ),
            file=sys.stderr,
        )
    return ledger


def schema_reference(config: Config) -> str:
    """What a new overlay's ``yaml-language-server`` line points at: ``schema_url`` when it is
    configured, else the configured schema file relative to the overlay's folder (the file
    `jobledger schema` writes), so the line is right on every clone and never names a path on
    the machine that ran the stub."""
    if config.files.schema_url:
        return config.files.schema_url
    start = PurePosixPath(config.files.overlay).parent
    return posixpath.relpath(PurePosixPath(config.files.schema).as_posix(), start.as_posix())


#: The editor line, as the stub writes it, with the reference it names.
_SCHEMA_LINE = re.compile(r"^\ufeff?#\s*yaml-language-server:\s*\$schema=(\S+)")


def stale_schema_line(text: str, reference: str, label: str) -> None:
    """Say so when the overlay's ``$schema`` line names a path on one machine (an older stub
    wrote one into its virtualenv): the stub only adds lines, so a person changes it."""
    for number, line in enumerate(text.splitlines()[:5], start=1):
        found = _SCHEMA_LINE.match(line)
        if found is None:
            continue
        named = found.group(1)
        machine = "site-packages" in named or named.startswith(("/", "~")) or ":\\" in named
        if machine and named != reference:
            say(
                one_line(
                    f"{label}:{number}: hint: the $schema line names a path on one machine "
                    f"({named}); change it to `$schema={reference}` (and run `jobledger "
                    "schema`) so editors find the schema on every clone"
                )
            )
        return


def run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    ledger = extract_ledger(config)
    label = config.files.overlay
    try:
        with locked(config.overlay_path, root=config.root):
            return _stub_locked(args, config, ledger)
    except OSError as error:  # the lock: the overlay's folder cannot be made or opened
        raise OverlayError(
            f"cannot lock the overlay's folder ({error.strerror or error}); check `overlay` in "
            "[tool.jobledger]; nothing was written",
            path=label,
        ) from None


def _stub_locked(args: argparse.Namespace, config: Config, ledger: Ledger) -> int:
    """Read, stub and write the overlay; the caller holds its lock (other stubs wait), and an
    editor's save that lands meanwhile is kept (:mod:`pytest_jobledger.stub.swap`).

    When this machine's memo says these exact inputs had nothing to do, the answer is the same
    without parsing the overlay (:mod:`pytest_jobledger.stub.memo`)."""
    path, label, limit = config.overlay_path, config.files.overlay, config.files.max_overlay_bytes
    text = read_overlay(config)
    committed_file = read_file("ledger", config)
    committed = committed_file.raw
    problem = committed_file.refused if committed is None else None
    # What a person reads names the overlay from the current folder; the plan's errors keep the
    # configured (root-relative) path.
    shown = Shown.here(config.root).path(label)
    memo = _memo(args, config, ledger, text, committed) if problem is None else None
    if text is not None and memo is not None and memo.holds():
        stale_schema_line(text, schema_reference(config), shown)
        report(StubResult(text=text, original=text), shown, check=args.check)
        return 0
    from ..stub.plan import is_empty_overlay

    previous = read_previous(config, committed_file)
    result = stub_overlay(
        text,
        ledger,
        previous,
        required_cells=config.cells.required,
        blocked_values=config.cells.blocked,
        renames=args.renames,
        path=label,
        schema=schema_reference(config) if text is None or is_empty_overlay(text) else None,
        max_bytes=limit,
        rename=tuple(args.rename) if args.rename else None,
        quote_yes_no=args.quote_yes_no,
    )
    if text is not None:
        stale_schema_line(text, schema_reference(config), shown)
    # "Nothing to do" as the memo records it: no change, no line of facts or hints, and no
    # warning about the committed ledger (a memo path would not print it again).
    warned = committed is not None and previous is None
    nothing = not result.changed and not result.report_lines() and not warned
    if args.check:
        report(result, shown, check=True, command=rerun(args))
        if nothing and memo is not None:
            memo.record()
        return 1 if result.changed else 0
    if result.changed:

        def reread() -> bytes | None:
            now = read_overlay(config, limit=OVERLAY_BYTES_CEILING)
            return None if now is None else now.encode("utf-8")

        try:
            write_unless_changed(
                path,
                result.text.encode("utf-8"),
                None if text is None else text.encode("utf-8"),
                root=config.root,
                label=label,
                reread=reread,
                before_swap=_BEFORE_SWAP,
            )
        except OSError as error:
            raise OverlayError(
                f"cannot write the overlay ({error.strerror or error}); the old file is unchanged",
                path=label,
            ) from None
    report(result, shown, check=False)
    if result.changed and not config.files.schema_url and (text is None or is_empty_overlay(text)):
        _write_missing_schema(config)
    if nothing and memo is not None:
        memo.record()
    return 0


def _write_missing_schema(config: Config) -> None:
    """A new overlay's ``$schema`` line names the configured schema file: write it when it is
    not there yet, so an editor finds what the line points at (``jobledger schema`` rewrites
    it after a configuration change)."""
    from ..overlay.schema import render_schema

    path = config.schema_path
    if path.exists() or path.is_symlink():
        return
    shown = Shown.here(config.root).path(config.display(path))
    try:
        atomic_write(
            path, render_schema(config.cells.vocabulary, config.cells.blocked), root=config.root
        )
    except OSError as error:
        say(one_line(f"{shown}: not written ({error.strerror or error}); run `jobledger schema`"))
        return
    say(one_line(f"{shown}: wrote the schema the overlay's $schema line names"))


def _memo(
    args: argparse.Namespace,
    config: Config,
    ledger: Ledger,
    text: str | None,
    committed: bytes | None,
) -> Memo | None:
    """The memo these inputs would have (``None`` without an overlay: there is always work).
    ``--check`` is not an input: with nothing to do both answer the same line and exit 0."""
    if text is None:
        return None
    options = {
        "renames": args.renames,
        "rename": list(args.rename) if args.rename else None,
        "quote_yes_no": args.quote_yes_no,
        "format": getattr(args, "format", None),
    }
    return open_memo(
        config, overlay=text.encode("utf-8"), ledger=ledger, committed=committed, options=options
    )


def stub_overlay(*args: Any, **kwargs: Any) -> StubResult:
    """:func:`pytest_jobledger.stub.plan.stub_overlay`, imported on first use: the planner
    imports the YAML libraries, which a run the memo answers never needs."""
    from ..stub.plan import stub_overlay as plan

    return plan(*args, **kwargs)


def rerun(args: argparse.Namespace) -> str:
    """The command that writes what ``--check`` found: the same flags without ``--check``."""
    words = ["jobledger", "stub"]
    for flag in ("root", "config"):
        if getattr(args, flag, None):
            words += [f"--{flag}", str(getattr(args, flag))]
    if args.renames:
        words.append("--renames")
    if args.rename:
        words += ["--rename", *args.rename]
    if args.quote_yes_no:
        words.append("--quote-yes-no")
    return shlex.join(words)


def report(result: StubResult, label: str, *, check: bool, command: str = "jobledger stub") -> None:
    """Each fact on its own line, then a one-line summary (stdout: this is the command's output);
    with ``check`` nothing was written, so each line says what the stub *would* do."""
    for line in result.report_lines(check=check):
        say(one_line(f"{label}: {line}"))
    say(one_line(f"{label}: {result.summary(check=check, command=command)}"))
