"""A hostile job id, YAML key or value can neither forge nor split a workflow command."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_jobledger.findings import Finding
from pytest_jobledger.github.commands import (
    annotation,
    escape_data,
    escape_property,
    workflow_command,
)

from ._commands import commands, parse

HOSTILE: list[str] = json.loads((Path(__file__).parent / "hostile_strings.json").read_text("utf-8"))


@pytest.mark.parametrize("text", HOSTILE)
def test_every_part_round_trips_through_the_runner(text: str) -> None:
    line = workflow_command("error", text, [("file", text), ("line", 7), ("title", text)])
    assert "\n" not in line
    assert "\r" not in line
    parsed = commands(line)
    assert len(parsed) == 1, "a hostile value split the command or forged a second one"
    assert parsed[0].name == "error"
    assert parsed[0].message == text
    assert parsed[0].properties == {"file": text, "line": "7", "title": text}


@pytest.mark.parametrize("text", HOSTILE)
def test_a_finding_made_of_hostile_strings_is_one_annotation_at_its_line(
    text: str, make_finding: Callable[..., Finding], tmp_path: Path
) -> None:
    finding = make_finding(job=text, cell=text, message=text, line=12)
    line = annotation(finding, tmp_path, tmp_path)
    [parsed] = commands(line)
    assert parsed.properties["file"] == "overlays/job_policy.yaml"
    assert parsed.properties["line"] == parsed.properties["endLine"] == "12"
    assert text in parsed.properties["title"]
    assert parsed.message == text


def test_properties_escape_colon_and_comma_but_the_message_keeps_them() -> None:
    assert escape_property("a:b,c%\n\r") == "a%3Ab%2Cc%25%0A%0D"
    assert escape_data("a:b,c%\n\r") == "a:b,c%25%0A%0D"


def test_a_message_that_looks_like_a_command_stays_inside_the_message() -> None:
    line = workflow_command("error", "x\n::error file=forged.py::boom", [("file", "a.py")])
    assert line == "::error file=a.py::x%0A::error file=forged.py::boom"
    assert parse(line) is not None
    assert parse(line).properties == {"file": "a.py"}  # type: ignore[union-attr]
