"""Each subcommand's module is imported only when it runs: ``jobledger --help`` and
``--version`` load no parser, no schema validator and no other subcommand. Counted in a fresh
interpreter's ``sys.modules``, never timed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from repo_files import copy_tracked

from pytest_jobledger.cli import COMMANDS, Command

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "celery"

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


def _imported(*argv: str, cwd: Path | None = None) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, check=False, cwd=cwd
    )
    assert done.stdout, done.stderr
    return set(json.loads(done.stderr))


def _heavy(modules: set[str]) -> list[str]:
    return sorted(name for name in modules if name.split(".")[0] in HEAVY)


#: The subcommands' own modules (the shared ``cli.options`` is not one: every parser uses it).
COMMAND_MODULES = frozenset(f"pytest_jobledger.cli.{command.module}" for command in COMMANDS)


def _commands(modules: set[str]) -> list[str]:
    return sorted(modules & COMMAND_MODULES)


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


def test_the_table_is_the_one_place_a_command_is_named() -> None:
    """A command's name and help are written once, in the table (``jobledger --help`` reads it
    without importing the module); each module holds only its arguments and its run."""
    for command in COMMANDS:
        module = command.load()
        assert not hasattr(module, "NAME"), command.module
        assert not hasattr(module, "HELP"), command.module
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


def test_audit_verify_reads_no_overlay_and_imports_no_parser(tmp_path: Path) -> None:
    """``audit --verify`` reads the trail alone: the configuration does not bring in the overlay's
    parsers, its validator or pathspec."""
    root = copy_tracked(EXAMPLE, tmp_path / "shop")
    modules = _imported("audit", "--verify", "--root", str(root), cwd=root)
    assert "pytest_jobledger.cli.audit" in modules
    assert _heavy(modules) == []


def test_list_imports_only_what_it_reads(tmp_path: Path) -> None:
    """``list`` on a warm cache reads the overlay (ruamel.yaml, PyYAML, its shape checked with
    jsonschema) and extracts (the warm cache's side is extract/'s: it still imports libcst and
    pathspec today, the extraction's own imports). What is asserted is the rest: no other
    subcommand, no stub, no drafts runner, no docs builder."""
    root = copy_tracked(EXAMPLE, tmp_path / "shop")
    subprocess.run(
        [sys.executable, "-m", "pytest_jobledger", "extract", "--root", str(root)],
        check=True,
        capture_output=True,
    )
    modules = _imported("list", "--root", str(root), cwd=root)
    assert "pytest_jobledger.cli.listing" in modules
    unwanted = ("pytest_jobledger.stub", "pytest_jobledger.draft.runner", "pytest_jobledger.docs")
    assert sorted(m for m in modules if m.startswith(unwanted)) == []
    commands = {f"pytest_jobledger.cli.{command.module}" for command in COMMANDS}
    assert sorted(commands & modules) == ["pytest_jobledger.cli.listing"]
