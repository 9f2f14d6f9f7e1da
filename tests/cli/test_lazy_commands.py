"""Each subcommand's module is imported only when it runs (issue 25): ``jobledger --help`` and
``--version`` load no parser, no schema validator and no other subcommand. Counted in a fresh
interpreter's ``sys.modules``, never timed."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pytest_jobledger.cli import COMMANDS, Command

#: What the short commands must not pay for: the parsers and the schema validator.
HEAVY = ("libcst", "jsonschema", "ruamel", "yaml", "pathspec")

#: Runs ``main(argv)`` and prints the modules it imported (argparse exits after --help).
PROBE = """
import json, sys
from pytest_jobledger.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
sys.stdout.flush()
sys.stderr.write(json.dumps(sorted(sys.modules)))
"""


def _imported(*argv: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, check=False
    )
    assert done.stdout, done.stderr
    return set(json.loads(done.stderr))


def _heavy(modules: set[str]) -> list[str]:
    return sorted(name for name in modules if name.split(".")[0] in HEAVY)


def _commands(modules: set[str]) -> list[str]:
    return sorted(
        name for name in modules if name.startswith("pytest_jobledger.cli.") and name != __name__
    )


@pytest.mark.parametrize("argv", [["--help"], ["--version"]])
def test_help_and_version_import_no_subcommand_and_no_parser(argv: list[str]) -> None:
    modules = _imported(*argv)
    assert _heavy(modules) == []
    assert _commands(modules) == []


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command.name)
def test_a_subcommands_help_imports_only_its_own_module(command: Command) -> None:
    """No other subcommand than those its own module imports (``show`` shares ``list``'s rows)."""
    own = f"pytest_jobledger.cli.{command.module}"
    modules = _imported(command.name, "--help")
    assert own in modules
    alone = subprocess.run(
        [sys.executable, "-c", f"import json, sys, {own}; print(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert _commands(modules) == _commands(set(json.loads(alone.stdout)))


def test_the_table_says_what_each_module_says() -> None:
    """The table's name and help are the module's own ``NAME`` and ``HELP`` (one source for
    ``jobledger --help`` and ``jobledger COMMAND --help``)."""
    for command in COMMANDS:
        module = command.load()
        assert (command.name, command.help) == (module.NAME, module.HELP)
        assert callable(module.add_arguments)
        assert callable(module.run)
    assert len({command.name for command in COMMANDS}) == len(COMMANDS)


def test_a_subcommands_help_lists_its_own_and_the_common_options() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest_jobledger", "list", "--help"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "--root DIR" in done.stdout
    assert "--unsigned" in done.stdout


def test_an_unknown_command_is_a_usage_error_that_names_the_commands() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest_jobledger", "lst"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "invalid choice: 'lst'" in done.stderr
    assert "'list'" in done.stderr
