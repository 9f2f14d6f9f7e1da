"""The options every subcommand spells the same way: ``--format`` (``--output-format``, ``--json``),
``-q``/``-v`` and ``--color``, and the notes on stderr that ``-q`` drops.

Defined once here, so a script or a shell alias that passes ``--format json -q --color never``
works with every command, and an unknown format is the same usage error everywhere (exit 2, the
choices listed). This module imports almost nothing: every ``jobledger`` run builds its parser.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..core.text import one_line, say

#: The formats of a command a person reads and a tool parses: its text, or one JSON document.
TEXT_JSON = ("text", "json")

#: ``--color``: the same choices as :data:`pytest_jobledger.reporters.terminal.CHOICES` (a test
#: keeps them equal; that module is not imported just to build the parser).
COLOR_CHOICES = ("auto", "always", "never")


def add_format_argument(
    parser: argparse.ArgumentParser,
    choices: Sequence[str],
    *,
    default: str = "text",
    note: str = "",
) -> None:
    """``--format FORMAT``, alias ``--output-format`` (as ruff and mypy spell it), and where JSON
    is one of the ``choices``, ``--json`` as its shorthand (the last one given wins)."""
    parser.add_argument(
        "--format",
        "--output-format",
        dest="format",
        choices=tuple(choices),
        default=default,
        metavar="FORMAT",
        help=f"output format: {', '.join(choices)} (default: {default}){note}",
    )
    if "json" in choices:
        parser.add_argument(
            "--json",
            dest="format",
            action="store_const",
            const="json",
            help="shorthand for --format json",
        )


#: What ``-q``/``-v``/``--color`` mean when not given, before or after the subcommand.
OUTPUT_DEFAULTS: dict[str, object] = {"quiet": False, "verbose": False, "color": "auto"}


def add_output_arguments(parser: argparse.ArgumentParser) -> None:
    """``-q``/``-v`` and ``--color``, on ``jobledger`` itself and on every subcommand, so
    ``jobledger -q check`` and ``jobledger check -q`` are the same (as ruff and mypy accept).

    Neither level has a default (``SUPPRESS``): argparse copies a subcommand's defaults over what
    was given before it, so :func:`settle_output_arguments` fills them in after parsing."""
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        default=argparse.SUPPRESS,
        help="say more where a command has more to say (check: the known items, every cell of "
        "a job with no entry, each finding's whole message)",
    )
    parser.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        default=argparse.SUPPRESS,
        help="drop progress and notes on stderr (check: print only the totals); errors and the "
        "command's output stay",
    )
    parser.add_argument(
        "--color",
        choices=COLOR_CHOICES,
        default=argparse.SUPPRESS,
        help="colour text output (default: auto: only on a terminal, not with NO_COLOR set; "
        "FORCE_COLOR forces it)",
    )


def settle_output_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Fill in what was not given anywhere, and refuse ``-q`` with ``-v`` wherever each was."""
    for name, default in OUTPUT_DEFAULTS.items():
        if not hasattr(args, name):
            setattr(args, name, default)
    if args.quiet and args.verbose:
        parser.error("-q/--quiet and -v/--verbose cannot be used together")


def note(args: argparse.Namespace, text: str) -> None:
    """A note on stderr (what was written, kept or skipped): ``-q`` drops it. Errors, and what
    a command prints as its output, never go through here."""
    if not getattr(args, "quiet", False):
        say(one_line(text), file=sys.stderr)
