"""SECURITY.md maps each promise to the tests that prove it: every test it names exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
REFERENCE = re.compile(r"`(tests/[\w/]+\.py)((?:::\w+)?)`|`::(\w+)`")


def _references() -> list[tuple[str, str | None]]:
    """(file, test name or None) for every test reference, ``::name`` continuing the last file."""
    found: list[tuple[str, str | None]] = []
    last = ""
    for match in REFERENCE.finditer((REPO / "SECURITY.md").read_text("utf-8")):
        path, name, continued = match.groups()
        if path:
            last = path
            found.append((path, name[2:] or None if name else None))
        else:
            found.append((last, continued))
    return found


def _functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}


def test_every_test_security_md_names_exists() -> None:
    references = _references()
    assert len(references) > 20
    for path, name in references:
        assert (REPO / path).is_file(), path
        if name is not None:
            assert name in _functions(REPO / path), f"{path}::{name}"
