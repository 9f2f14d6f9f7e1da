"""A trail others can check: the packaged schemas describe each line as stored (the event plus
the chain's ``time`` and ``prev``), so an auditor validates a real trail with jsonschema alone,
reading the schema files, not this package's code."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from repo_files import copy_tracked

from pytest_jobledger import audit
from pytest_jobledger.audit import events
from pytest_jobledger.cli import main

from .test_events import VALID

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = resources.files("pytest_jobledger").joinpath("schemas")


def _schema_files() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for entry in SCHEMAS.iterdir():
        if entry.name.startswith("audit-") and entry.name.endswith(".schema.json"):
            kind = entry.name.removeprefix("audit-").removesuffix(".schema.json")
            found[kind] = json.loads(entry.read_text("utf-8"))
    return found


def _validate(line: dict[str, Any]) -> list[str]:
    """What a third party does: pick the schema file by the line's ``event``, validate."""
    schema = _schema_files()[line["event"]]
    validator = jsonschema.Draft202012Validator(schema)
    return [error.message for error in validator.iter_errors(line)]


def test_every_kind_has_a_schema_that_describes_its_stored_line() -> None:
    files = _schema_files()
    assert set(files) == set(events.KINDS)
    for kind, schema in files.items():
        jsonschema.Draft202012Validator.check_schema(schema)
        for key, declared in events.CHAIN_PROPERTIES.items():
            assert schema["properties"][key] == declared, (kind, key)
            assert key in schema["required"], (kind, key)
        assert schema["additionalProperties"] is False, kind


def test_each_line_of_a_trail_of_every_kind_validates_as_stored(tmp_path: Path) -> None:
    store = audit.open_store(".jobledger/audit.ndjson", root=tmp_path, env={})
    for record in VALID.values():
        audit.append_event(store, record)
    stored = (tmp_path / ".jobledger" / "audit.ndjson").read_text("utf-8").splitlines()
    assert len(stored) == len(VALID)
    for text in stored:
        line = json.loads(text)
        assert {"time", "prev"} <= set(line)
        assert _validate(line) == [], line["event"]


def test_a_real_verdicts_trail_validates_line_by_line(tmp_path: Path) -> None:
    root = tmp_path / "shop"
    copy_tracked(REPO / "examples" / "celery", root)
    ask = ["verdict", "acme_shop.celery_app.ping", "--root", str(root), "--action", "retry"]
    for _ in range(3):
        main(ask)
    plan = ["--plan", "-o", str(tmp_path / "plan.json"), "--action", "bulk-retry", "--count", "5"]
    main(["verdict", "acme_shop.billing.tasks.capture_invoice", "--root", str(root), *plan])
    lines = [
        json.loads(text)
        for text in (root / ".jobledger" / "audit.ndjson").read_text("utf-8").splitlines()
    ]
    assert len(lines) >= 3
    for line in lines:
        assert _validate(line) == [], line


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda line: line.pop("prev"), "'prev' is a required property"),
        (lambda line: line.pop("time"), "'time' is a required property"),
        (lambda line: line.update(prev="not-a-digest"), "does not match"),
        (lambda line: line.update(time="yesterday"), "does not match"),
        (lambda line: line.update(extra=1), "Additional properties"),
    ],
)
def test_a_line_the_log_did_not_write_is_refused(tmp_path: Path, change: Any, says: str) -> None:
    store = audit.open_store(".jobledger/audit.ndjson", root=tmp_path, env={})
    audit.append_event(store, VALID["verdict"])
    line = json.loads((tmp_path / ".jobledger" / "audit.ndjson").read_text("utf-8"))
    change(line)
    assert any(says in message for message in _validate(line))


def test_a_record_may_not_bring_its_own_chain_keys() -> None:
    assert events.problems({**VALID["verdict"], "prev": "0" * 64}) == [
        "the log writes prev, time itself"
    ]
