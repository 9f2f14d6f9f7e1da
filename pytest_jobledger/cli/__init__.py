"""The ``jobledger`` command: one subcommand per module of this package.

Each subcommand module has ``add_arguments(parser)`` and ``run(args)``; adding one is a module
here and a line in :data:`COMMANDS` (its name, its one-line help and its module: the one place
both are written, read without importing the module).
A subcommand's module is imported only when that subcommand is parsed, so ``jobledger --help``,
``--version`` and ``jobledger list`` do not pay for every other command's imports.

Beside the subcommands: ``common`` (``--root``/``--config`` into a ``Config``, the job an
operator named), ``options`` (the options every subcommand spells the same way), ``progress``
(how far a long extraction is, on stderr), ``selection`` (``check``'s ``--select``, ``--ignore``
and ``--exit-zero``), ``cards`` (the text a person reads during an incident) and
``observations`` (the trail's record of what was looked at and what was refused).

Exit codes, for every subcommand: 0 clean, 1 findings or problems reported, 2 usage or
configuration error (``verdict`` also exits 3 for needs-review, and 2 when its trail cannot be
written), 141 when the reader of the output went away (``jobledger list | head -1``: quietly,
as ``cat`` would). A user's mistake is printed as ``path:line: message``, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import Any, NamedTuple, TypeVar, overload

from .. import __version__
from ..core.errors import JobledgerError


class Command(NamedTuple):
    """One line of the table: what ``jobledger --help`` lists without importing the module.
    (A named tuple, not a dataclass: ``dataclasses`` imports ``inspect``, a tenth of the budget.)"""

    name: str
    help: str
    #: The module here that implements it: ``add_arguments`` and ``run``.
    module: str

    def load(self) -> ModuleType:
        return importlib.import_module(f"{__name__}.{self.module}")


COMMANDS: tuple[Command, ...] = (
    Command(
        "extract",
        "parse the tree statically and write the job ledger (never imports the code)",
        "extract",
    ),
    Command(
        "check",
        "join the ledger with the overlay and report every unsigned or invalid cell",
        "check",
    ),
    Command(
        "gate",
        "run pytest --jobledger alone, as the GitHub Action does (no conftest, addopts or plugins)",
        "gate",
    ),
    Command(
        "stub",
        "add a placeholder overlay entry for every unsigned job (it never signs anything)",
        "stub",
    ),
    Command(
        "schema",
        "write the overlay schema for this configuration (required cells, project cells, enums)",
        "schema",
    ),
    Command(
        "diff",
        "show what changed since a git ref: ledger fields and policy cells, job by job",
        "diff",
    ),
    Command(
        "render",
        "render the runbook from the ledger and the signed overlay"
        " (refuses while cells are unsigned)",
        "render",
    ),
    Command(
        "draft",
        "ask a command for unverified purpose drafts of unsigned jobs (never signs anything)",
        "draft",
    ),
    Command(
        "list",
        "one line per job of the committed ledger: queue, retries, signed policy and state",
        "listing",
    ),
    Command(
        "show",
        "one job's card: the ledger row, every overlay cell, its findings, where each fact is from",
        "show",
    ),
    Command(
        "verdict",
        "may this job be retried, requeued or replayed? approved, blocked or needs-review",
        "verdict",
    ),
    Command(
        "reconcile",
        "record the business outcome of the approved batches of a job and ticket",
        "reconcile",
    ),
    Command(
        "audit",
        "print the trail of verdicts, or check that no line was edited, removed or reordered",
        "audit",
    ),
    Command(
        "baseline",
        "record every failing cell now in the baseline, so the gate fails only on new problems",
        "baseline",
    ),
)

#: What a user's mistake exits with (0 and 1 are each subcommand's own answer).
EXIT_USAGE = 2


def build_parser() -> argparse.ArgumentParser:
    parser = _JobledgerParser(
        prog="jobledger",
        description="Keep background-job documentation honest: "
        "extract the ledger, check the overlay.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    from .options import add_output_arguments

    add_output_arguments(parser)
    sub = parser.add_subparsers(
        dest="command",
        metavar="COMMAND",
        required=True,
        parser_class=_CommandParser,
        action=_Commands,
    )
    for command in COMMANDS:
        sub.add_parser(command.name, help=command.help, description=command.help, command=command)
    return parser


class _Commands(argparse._SubParsersAction):  # type: ignore[type-arg]
    """The subcommands: each listed (its name and help) at once, its parser made only when the
    command line names it (fourteen parsers cost a command a fifth of its start-up budget)."""

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        """List ``name`` with its help; ``kwargs`` make its parser when it is named."""
        kwargs.setdefault("prog", f"{self._prog_prefix} {name}")
        self._choices_actions.append(self._ChoicesPseudoAction(name, (), kwargs.pop("help")))
        self._name_parser_map[name] = kwargs
        return None

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        name = values[0] if values else None
        if isinstance(name, str):
            made = self._name_parser_map.get(name)
            if isinstance(made, dict):
                self._name_parser_map[name] = self._parser_class(**made)
        super().__call__(parser, namespace, values, option_string)


_N = TypeVar("_N")


class _HookedParser(argparse.ArgumentParser):
    """A parser with a step before and after it parses its part of the command line (argparse
    has no hook for either; the overloads keep ``parse_args``' types for mypy)."""

    def before(self) -> None:
        """Runs before this parser reads its arguments."""

    def after(self, parsed: argparse.Namespace) -> None:
        """Runs once this parser has read its arguments into ``parsed``."""

    @overload
    def parse_known_args(
        self, args: Iterable[str] | None = None, namespace: None = None
    ) -> tuple[argparse.Namespace, list[str]]: ...
    @overload
    def parse_known_args(
        self, args: Iterable[str] | None, namespace: _N
    ) -> tuple[_N, list[str]]: ...
    @overload
    def parse_known_args(self, *, namespace: _N) -> tuple[_N, list[str]]: ...
    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        self.before()
        parsed, rest = super().parse_known_args(args, namespace)
        self.after(parsed)
        return parsed, rest


class _JobledgerParser(_HookedParser):
    """``jobledger`` itself: once the whole line is parsed, the options every command shares get
    their defaults, wherever they were given (before or after the subcommand)."""

    def after(self, parsed: argparse.Namespace) -> None:
        from .options import settle_output_arguments

        settle_output_arguments(self, parsed)


class _CommandParser(_HookedParser):
    """A subcommand's parser that imports its module and adds its arguments only when argparse
    hands it the rest of the command line: the one subcommand that runs is the only one loaded."""

    def __init__(self, *args: Any, command: Command | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._command = command

    def before(self) -> None:
        """Add the command's arguments (once); ``jobledger COMMAND --help`` shows them all."""
        command, self._command = self._command, None
        if command is None:
            return
        module = command.load()
        add_common_arguments(self)
        module.add_arguments(self)
        self.set_defaults(run=module.run)


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
    from .options import add_output_arguments

    add_output_arguments(parser)


#: The reader of our output went away (``jobledger list | head -1``): 128 + SIGPIPE, the status a
#: shell reports for ``cat`` or ``yes`` in the same place.
EXIT_BROKEN_PIPE = 141


def main(argv: Sequence[str] | None = None) -> int:
    from ..core.text import flush_output, reader_gone

    try:
        code = _main(argv)
    except SystemExit:  # --help, --version and usage errors: argparse printed, then exited
        flush_output()
        if reader_gone():
            return _reader_gone()
        raise
    except BrokenPipeError:  # a write that bypassed the printer
        return _reader_gone()
    # Flushed here, so a closed pipe is noted by the printer and not reported by the
    # interpreter's own flush at exit (a traceback-like "Exception ignored" and exit 120).
    flush_output()
    if reader_gone():
        return _reader_gone()
    return code


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except JobledgerError as error:
        from ..core.text import one_line, say

        say(one_line(f"jobledger: {error}"), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    return code


def _reader_gone() -> int:
    """Stop quietly: nobody reads what is left. The printer (``text.say``) already took each
    failed write, so the command ran to its end and wrote every file; the standard streams point
    at the null device from here on, so nothing flushed at exit can fail again."""
    from ..core.text import reader_went_away

    for stream in (sys.stdout, sys.stderr):
        reader_went_away(stream)
    return EXIT_BROKEN_PIPE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
