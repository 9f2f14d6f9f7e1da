"""The ``jobledger`` command: one subcommand per module of this package.

Each subcommand module has ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args)``; adding
one is a module here and a line in :data:`COMMANDS`.

Exit codes, for every subcommand: 0 clean, 1 findings or problems reported, 2 usage or
configuration error (``verdict`` also exits 3 for needs-review, and 2 when its trail cannot be
written), 141 when the reader of the output went away (``jobledger list | head -1``: quietly,
as ``cat`` would). A user's mistake is printed as ``path:line: message``, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from .. import __version__
from ..atomic import null_device
from ..errors import JobledgerError
from ..text import one_line, say
from . import (
    audit,
    baseline,
    check,
    diff,
    draft,
    extract,
    listing,
    reconcile,
    render,
    schema,
    show,
    stub,
    verdict,
)

COMMANDS: tuple[ModuleType, ...] = (
    extract,
    check,
    stub,
    schema,
    diff,
    render,
    draft,
    listing,
    show,
    verdict,
    reconcile,
    audit,
    baseline,
)

#: What a user's mistake exits with (0 and 1 are each subcommand's own answer).
EXIT_USAGE = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jobledger",
        description="Keep background-job documentation honest: "
        "extract the ledger, check the overlay.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        child = sub.add_parser(command.NAME, help=command.HELP, description=command.HELP)
        add_common_arguments(child)
        command.add_arguments(child)
        child.set_defaults(run=command.run)
    return parser


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--root",
        metavar="DIR",
        help="project root (default: the folder of the nearest pyproject.toml above here)",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="TOML file with a [tool.jobledger] table (default: ROOT/pyproject.toml)",
    )


#: The reader of our output went away (``jobledger list | head -1``): 128 + SIGPIPE, the status a
#: shell reports for ``cat`` or ``yes`` in the same place.
EXIT_BROKEN_PIPE = 141


def main(argv: Sequence[str] | None = None) -> int:
    try:
        code = _main(argv)
        # Flushed here, so a closed pipe is caught below and not reported by the interpreter's
        # own flush at exit (a traceback-like "Exception ignored" and exit 120).
        sys.stdout.flush()
        sys.stderr.flush()
    except SystemExit:  # --help, --version and usage errors: argparse printed, then exited
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            return _reader_gone()
        raise
    except BrokenPipeError:
        return _reader_gone()
    return code


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except JobledgerError as error:
        say(one_line(f"jobledger: {error}"), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    return code


def _reader_gone() -> int:
    """Stop quietly: nobody reads what is left. The standard streams point at the null device
    from here on, so nothing flushed at exit can fail again."""
    with contextlib.suppress(OSError, ValueError):  # ValueError: a stream without a descriptor
        null = null_device()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                os.dup2(null, stream.fileno())
        os.close(null)
    return EXIT_BROKEN_PIPE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
