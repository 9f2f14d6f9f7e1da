"""A lone surrogate (``\\udfff``, from an escape in a source or an overlay) reaches every channel
as its escape: no presenter dies with UnicodeEncodeError, and JSON reads back the same value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_jobledger import reporters
from pytest_jobledger.findings import STATUS_JOB
from pytest_jobledger.github.summary import render_summary
from pytest_jobledger.ledger.model import Job, Ledger
from pytest_jobledger.project import Config
from pytest_jobledger.session import evaluate

JOB_ID = "acme.tasks.capture\udfff"


@pytest.fixture
def findings(tmp_path: Path) -> list[object]:
    ledger = Ledger.build(
        [
            Job(
                id=JOB_ID,
                function="capture",
                module="acme.tasks",
                path="src/acme/tasks.py",
                line=4,
                framework="celery",
                decorator="celery.shared_task",
            )
        ]
    )
    # Not the status items: no ledger is committed here, and their messages hold no job id.
    found = evaluate(Config(root=tmp_path), ledger=ledger).findings
    return [finding for finding in found if finding.job != STATUS_JOB]


@pytest.mark.parametrize("name", reporters.names())
def test_every_format_can_be_written_as_utf8(
    tmp_path: Path, findings: list[object], name: str
) -> None:
    text = reporters.get(name)(findings, Config(root=tmp_path))  # type: ignore[arg-type]
    text.encode("utf-8")  # the crash was here, when the command printed it
    assert "\\udfff" in text


def test_json_reads_back_the_same_id(tmp_path: Path, findings: list[object]) -> None:
    text = reporters.get("json")(findings, Config(root=tmp_path))  # type: ignore[arg-type]
    assert {row["id"] for row in json.loads(text)} == {JOB_ID}


def test_the_job_summary_can_be_written(findings: list[object]) -> None:
    render_summary(findings).encode("utf-8")  # type: ignore[arg-type]
