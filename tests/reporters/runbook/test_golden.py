"""Golden runbooks: every folder under tests/cases/runbook is one page, compared byte for byte.

A folder holds ``case.json`` (``about``, ``root``: the project, ``.`` for the folder itself or a
bundled example such as ``examples/celery``, and ``preview``) and the expected ``expected.md``
and ``expected.json``, rendered through the real command (``jobledger render -o -``). A change
that alters a page shows up here as a diff to review; to accept it run
``JOBLEDGER_UPDATE_GOLDEN=1 pytest tests/reporters/runbook/test_golden.py``.
"""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from pytest_jobledger.cli import main
from pytest_jobledger.reporters.runbook.model import Runbook

from ._inert import foreign_markup, inspect

REPO = Path(__file__).resolve().parents[3]
CASES = REPO / "tests" / "cases" / "runbook"
CASE_DIRS = sorted(path for path in CASES.iterdir() if (path / "case.json").is_file())
SCHEMA = json.loads(
    resources.files("pytest_jobledger").joinpath("schemas/runbook.schema.json").read_text("utf-8")
)
FORMATS = {"markdown": "expected.md", "json": "expected.json"}


def _case(case: Path) -> dict[str, Any]:
    return json.loads((case / "case.json").read_text("utf-8"))  # type: ignore[no-any-return]


def render(case: Path, fmt: str, capsys: pytest.CaptureFixture[str]) -> str:
    spec = _case(case)
    root = (case / spec["root"]) if spec["root"] == "." else REPO / spec["root"]
    args = ["render", "--root", str(root), "-o", "-", "--format", fmt]
    code = main([*args, "--preview"] if spec["preview"] else args)
    out = capsys.readouterr().out
    assert code == 0, capsys.readouterr().err
    return out


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("case", CASE_DIRS, ids=[path.name for path in CASE_DIRS])
def test_runbook_is_golden(case: Path, fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    text = render(case, fmt, capsys)
    golden = case / FORMATS[fmt]
    if os.environ.get("JOBLEDGER_UPDATE_GOLDEN"):
        golden.write_bytes(text.encode("utf-8"))
    assert golden.is_file(), f"{golden} is missing; run with JOBLEDGER_UPDATE_GOLDEN=1"
    assert golden.read_bytes().decode("utf-8") == text


@pytest.mark.parametrize("case", CASE_DIRS, ids=[path.name for path in CASE_DIRS])
def test_json_matches_the_schema_and_round_trips(
    case: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = render(case, "json", capsys)
    data = json.loads(text)
    jsonschema.validate(data, SCHEMA)
    assert Runbook.from_json(data).dumps() == text
    assert data["mode"] == ("preview" if _case(case)["preview"] else "publish")


@pytest.mark.parametrize("case", CASE_DIRS, ids=[path.name for path in CASE_DIRS])
def test_every_page_is_inert_commonmark(case: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Parsed by a real CommonMark parser, no page holds markup its repository put there."""
    text = render(case, "markdown", capsys)
    assert foreign_markup(text) == []
    data = json.loads(render(case, "json", capsys))
    found = inspect(text)
    jobs = data["jobs"]
    # The only headings: the title, "Jobs by ...", one per group, "Jobs", one per job, and the
    # defaults and blocking sections when they are there. None came from a hostile value.
    groups = len({job["group"] for job in jobs})
    closing = bool(data["defaults"]) + bool(data["blocking"])
    assert len(found.headings) == 3 + groups + len(jobs) + closing, found.headings
    assert found.anchors == {job["anchor"] for job in jobs}


def test_two_renders_are_byte_identical(capsys: pytest.CaptureFixture[str]) -> None:
    case = CASES / "partly_signed"
    assert render(case, "markdown", capsys) == render(case, "markdown", capsys)


def test_the_schema_is_a_valid_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
