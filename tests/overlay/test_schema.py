"""The overlay schema is generated from the vocabulary and the configuration."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from pytest_jobledger.cli import main
from pytest_jobledger.core.errors import ConfigError
from pytest_jobledger.overlay.schema import build_schema, render_schema, schema, schema_text
from pytest_jobledger.project import Config, config_from_table


def generated(table: dict[str, object], root: Path) -> dict[str, object]:
    config = config_from_table(table, root=root)
    return build_schema(config.cells.vocabulary, config.cells.blocked)


def test_the_packaged_schema_is_what_the_default_configuration_generates(tmp_path: Path) -> None:
    config = Config(root=tmp_path)
    assert render_schema(config.cells.vocabulary, config.cells.blocked) == schema_text()


def test_a_configured_extra_cell_is_accepted_by_the_written_schema(tmp_path: Path) -> None:
    """The packaged schema rejects it (additionalProperties: false); the project's accepts it."""
    cells = ["idempotent", "data_classification"]
    overlay = {"jobs": {"a.b.c": {"idempotent": "yes", "data_classification": "pii"}}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(overlay, schema())
    jsonschema.validate(overlay, generated({"required_cells": cells}, tmp_path))
    entry = generated({"required_cells": cells}, tmp_path)["$defs"]["entry"]  # type: ignore[index]
    assert entry["required"] == cells


def test_a_projects_own_optional_cell_and_allowed_values(tmp_path: Path) -> None:
    table = {
        "required_cells": ["runtime_class"],
        "cells": {
            "runtime_class": {"allowed": ["synchronous-short", "batch-long"]},
            "data_owner": {"description": "Who owns the data the job touches."},
        },
    }
    document = generated(table, tmp_path)
    entry = document["$defs"]["entry"]  # type: ignore[index]
    assert entry["properties"]["runtime_class"]["enum"] == ["synchronous-short", "batch-long"]
    assert entry["properties"]["data_owner"]["description"] == "Who owns the data the job touches."
    assert entry["required"] == ["runtime_class"]
    good = {"jobs": {"a.b.c": {"runtime_class": "batch-long", "data_owner": "ledger team"}}}
    jsonschema.validate(good, document)
    with pytest.raises(jsonschema.ValidationError, match="is not one of"):
        jsonschema.validate({"jobs": {"a.b.c": {"runtime_class": "slow"}}}, document)


def test_blocked_values_are_never_a_signature_in_any_case(tmp_path: Path) -> None:
    document = generated({"blocked_values": ["", "unknown", "TBD"]}, tmp_path)
    validator = jsonschema.Draft202012Validator(document["$defs"]["signed"])  # type: ignore[index]
    assert not validator.is_valid(" tbd ")
    assert not validator.is_valid("Unknown")
    assert not validator.is_valid("  ")
    assert validator.is_valid("tbd later")


@pytest.mark.parametrize(
    ("table", "says"),
    [
        ({"cells": {"idempotent": {"allowed": ["yes"]}}}, "takes yes-no answers"),
        ({"cells": {"queue": {"allowed": ["a"]}}}, "ledger field"),
        ({"cells": {"runtime_class": {"allowed": ["a", "a"]}}}, "twice"),
        ({"cells": {"runtime_class": {"allowed": ["unknown"]}}}, "blocked value"),
        ({"cells": {"runtime_class": {"alowed": ["a"]}}}, "did you mean 'allowed'"),
        ({"cells": {"runtime_class": {"allowed": "a"}}}, "list of non-empty strings"),
    ],
)
def test_a_bad_cells_table_names_the_key(
    tmp_path: Path, table: dict[str, object], says: str
) -> None:
    with pytest.raises(ConfigError, match=says) as info:
        config_from_table(table, root=tmp_path)
    assert "cells." in str(info.value)


def test_jobledger_schema_writes_checks_and_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jobledger]\n[tool.jobledger.cells.runtime_class]\nallowed = ["batch-long"]\n'
    )
    root = ["--root", str(tmp_path)]
    assert main(["schema", *root, "--check"]) == 1
    assert "does not exist" in capsys.readouterr().err
    assert main(["schema", *root]) == 0
    written = tmp_path / "overlays" / "job_policy.schema.json"
    data = json.loads(written.read_text("utf-8"))
    assert data["$defs"]["entry"]["properties"]["runtime_class"]["enum"] == ["batch-long"]
    assert main(["schema", *root, "--check"]) == 0
    capsys.readouterr()
    assert main(["schema", *root, "-o", "-"]) == 0
    assert capsys.readouterr().out == written.read_text("utf-8")
