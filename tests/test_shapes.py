"""The quick check of a trail record never says "valid" where jsonschema finds an error (so a
verdict appended without importing the validator is one the validator would have accepted), and
it does say "valid" for the records the tool really writes (so the validator is not imported)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from helpers import example
from hypothesis import given
from hypothesis import strategies as st

from pytest_jobledger.audit.events import KINDS, schema
from pytest_jobledger.cli import main
from pytest_jobledger.core.shapes import conforms

JOB = "acme_shop.billing.tasks.capture_invoice"

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-3, max_value=10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["", "0" * 64, "1970-01-01T00:00:00.000Z", "retry", "verdict", "committed"])
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


def errors(kind: str, record: dict[str, Any]) -> list[str]:
    validator = jsonschema.Draft202012Validator(schema(kind))
    return [error.message for error in validator.iter_errors(record)]


@st.composite
def records(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A record of some kind: its schema's keys (some left out), some others, any values."""
    kind = draw(st.sampled_from(KINDS))
    properties = schema(kind).get("properties", {})
    names = draw(st.lists(st.sampled_from(sorted(properties)), unique=True))
    record: dict[str, Any] = {name: draw(VALUES) for name in names}
    if draw(st.booleans()):
        record["event"] = kind
    record.update(draw(st.dictionaries(st.text(max_size=5), VALUES, max_size=2)))
    return kind, record


@given(records())
def test_the_quick_check_agrees_with_jsonschema_whenever_it_answers(
    generated: tuple[str, dict[str, Any]],
) -> None:
    kind, record = generated
    quick = conforms(schema(kind), record)
    if quick is not None:
        assert quick == (errors(kind, record) == [])


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The trail lines a real ``verdict`` and an observed ``list`` and ``show`` write."""
    root = example("celery", tmp_path_factory.mktemp("trail") / "shop")
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text()
    pyproject.write_text(
        text.replace('paths = ["src"]\n', 'paths = ["src"]\naudit_observations = true\n', 1)
    )
    for args in (
        ["list"],
        ["show", JOB],
        ["verdict", JOB, "--action", "retry"],
        ["verdict", JOB, "--action", "retry", "--ticket", "INC-7"],
        ["verdict", "no.such.job", "--action", "retry"],
    ):
        with contextlib.suppress(SystemExit):
            main([*args, "--root", str(root)])
    trail = Path(root / ".jobledger" / "audit.ndjson").read_text().splitlines()
    return [json.loads(line) for line in trail]


def test_what_the_tool_writes_is_proved_valid_without_the_validator(
    written: list[dict[str, Any]],
) -> None:
    kinds = {record["event"] for record in written}
    assert {"verdict", "observation", "refusal"} <= kinds
    for record in written:
        assert errors(record["event"], record) == []
        assert conforms(schema(record["event"]), record) is True, record["event"]


def _mutations(record: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for name, value in record.items():
        out.append({key: item for key, item in record.items() if key != name})
        for other in (None, True, 7, 1.5, "x" * 5000, "", [], {}, [value], {"k": value}):
            out.append({**record, name: other})
    out.append({**record, "unexpected": 1})
    return out


def test_a_written_record_spoilt_any_way_is_never_proved_valid_when_it_is_not(
    written: list[dict[str, Any]],
) -> None:
    for record in written:
        kind = record["event"]
        for spoilt in _mutations(record):
            quick = conforms(schema(kind), spoilt)
            if quick is not None:
                assert quick == (errors(kind, spoilt) == []), (kind, spoilt)
