"""Every ``JOBLEDGER_*`` variable is named in ``core/environment.py`` and read there only, so an
operator's override is found in one place (and the key table says which key it wins over)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from pytest_jobledger.core import environment
from pytest_jobledger.project.keys import KEYS

PACKAGE = Path(__file__).resolve().parents[2] / "pytest_jobledger"
NAME = re.compile(r"JOBLEDGER_[A-Z_]+")


def test_no_other_module_names_a_variable() -> None:
    found = [
        f"{path.relative_to(PACKAGE)}:{node.lineno}: {node.value}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != PACKAGE / "core" / "environment.py"
        for node in ast.walk(ast.parse(path.read_text("utf-8")))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and NAME.fullmatch(node.value)
    ]
    assert found == []


def test_each_override_in_the_key_table_is_a_variable_read_here() -> None:
    overrides = {key.env for key in KEYS if key.env is not None}
    assert overrides == {environment.AUDIT_URL, environment.CACHE_DIR}
    assert overrides <= set(environment.VARIABLES)
