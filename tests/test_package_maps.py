"""Every package's docstring is a map that names what is really there: each module and each
subpackage, so a newcomer reading ``__init__.py`` finds every room (the command line's
subcommands are named by its table of commands instead)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pytest_jobledger.cli import COMMANDS

PACKAGE = Path(__file__).resolve().parents[1] / "pytest_jobledger"
PACKAGES = sorted(path.parent for path in PACKAGE.rglob("__init__.py"))


def named(docstring: str, name: str) -> bool:
    return any(
        spelled in docstring for spelled in (f"``{name}``", f"``{name}/``", f":mod:`.{name}`")
    )


@pytest.mark.parametrize("folder", PACKAGES, ids=[str(p.relative_to(PACKAGE)) for p in PACKAGES])
def test_the_package_docstring_names_every_module(folder: Path) -> None:
    docstring = ast.get_docstring(ast.parse((folder / "__init__.py").read_text("utf-8"))) or ""
    modules = {path.stem for path in folder.glob("*.py")} - {"__init__"}
    modules |= {path.name for path in folder.iterdir() if (path / "__init__.py").is_file()}
    if folder.name == "cli":
        modules -= {command.module for command in COMMANDS}
    assert sorted(name for name in modules if not named(docstring, name)) == []
