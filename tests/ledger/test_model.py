"""The ledger's records against their published contract, ``schemas/ledger.schema.json``."""

from __future__ import annotations

import json
from importlib import resources

from pytest_jobledger.ledger.model import FRAMEWORKS, LEDGER_KEYS, Pattern


def _schema() -> dict[str, object]:
    text = resources.files("pytest_jobledger").joinpath("schemas/ledger.schema.json").read_text()
    return json.loads(text)  # type: ignore[no-any-return]


def test_patterns_are_exactly_the_schemas() -> None:
    schema = _schema()["$defs"]["unsupported"]["properties"]["pattern"]  # type: ignore[index]
    assert schema["enum"] == [pattern.value for pattern in Pattern]


def test_job_keys_and_frameworks_are_exactly_the_schemas() -> None:
    job = _schema()["$defs"]["job"]  # type: ignore[index]
    assert job["required"] == list(LEDGER_KEYS)
    assert job["properties"]["framework"]["enum"] == list(FRAMEWORKS)
