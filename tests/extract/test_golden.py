"""The bundled examples' ledgers are golden files: extraction must reproduce them byte for byte.

So are the ledgers of the runbook cases that are projects of their own. A change to extraction
that alters a ledger shows up here as a diff to review. To accept it, run
``JOBLEDGER_UPDATE_GOLDEN=1 pytest tests/extract/test_golden.py`` and review the changed files.
"""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from pytest_jobledger.extract import extract_ledger
from pytest_jobledger.ledger.model import Ledger
from pytest_jobledger.project import load_config

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: The runbook cases that are projects of their own commit their ledger too, like the examples.
RUNBOOK_CASES = EXAMPLES.parent / "tests" / "cases" / "runbook"
PROJECTS = sorted(p.parent for p in EXAMPLES.glob("*/pyproject.toml")) + sorted(
    p.parent for p in RUNBOOK_CASES.glob("*/pyproject.toml")
)
SCHEMA = json.loads(
    resources.files("pytest_jobledger").joinpath("schemas/ledger.schema.json").read_text("utf-8")
)


def _fresh(project: Path) -> tuple[Path, str]:
    config = load_config(root=project)
    return config.ledger_path, extract_ledger(config).dumps()


@pytest.mark.parametrize("project", PROJECTS, ids=[p.name for p in PROJECTS])
def test_example_ledger_is_golden(project: Path) -> None:
    golden, text = _fresh(project)
    if os.environ.get("JOBLEDGER_UPDATE_GOLDEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, encoding="utf-8")
    assert golden.is_file(), f"{golden} is missing; run with JOBLEDGER_UPDATE_GOLDEN=1"
    assert golden.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("project", PROJECTS, ids=[p.name for p in PROJECTS])
def test_example_ledger_matches_schema_and_round_trips(project: Path) -> None:
    _, text = _fresh(project)
    data = json.loads(text)
    jsonschema.validate(data, SCHEMA)
    assert Ledger.from_json(data).dumps() == text
    assert data["jobs"], "every example registers jobs"


def test_extraction_is_deterministic() -> None:
    project = EXAMPLES / "mixed"
    assert _fresh(project)[1] == _fresh(project)[1]


def test_examples_cover_every_framework() -> None:
    frameworks = set()
    for project in PROJECTS:
        frameworks |= {job.framework for job in extract_ledger(load_config(root=project)).jobs}
    assert {"celery", "rq", "dramatiq", "huey", "custom", "django-tasks", "arq"} <= frameworks
