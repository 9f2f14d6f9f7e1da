"""The key table is the one place a setting is named: the README's block, the records' defaults
and the table's JSON schema all agree with it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import jsonschema
import pytest

from pytest_jobledger.core.errors import ConfigError
from pytest_jobledger.core.readers import parse_toml
from pytest_jobledger.project import Config, load_config
from pytest_jobledger.project.keys import KEYS, KNOWN, readme_block, table_schema

#: The configuration block lives in the reference page (the README is a short front page).
README = Path(__file__).resolve().parents[2] / "docs" / "reference.md"


def test_the_readme_block_is_the_key_table() -> None:
    assert readme_block() in README.read_text(encoding="utf-8"), (
        "the README's configuration block differs from project/keys.py; paste readme_block()"
    )


def test_every_key_is_in_the_readme_once_and_the_block_is_a_valid_table(tmp_path: Path) -> None:
    text = "\n".join(line[4:] for line in readme_block().splitlines())
    table = parse_toml(text)["tool"]["jobledger"]
    assert set(table) == KNOWN
    jsonschema.Draft202012Validator(table_schema()).validate(table)
    (tmp_path / "src").mkdir()
    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    config = load_config(cwd=tmp_path)  # the README's example is a configuration that loads
    assert config.extraction.decorators["acme.jobs.job"].framework == "celery"


def test_a_record_default_is_the_table_default(tmp_path: Path) -> None:
    built = Config(root=tmp_path)
    read = load_config(cwd=tmp_path)
    for key in KEYS:
        record = getattr(built, key.record)
        assert any(f.name == key.field for f in dataclasses.fields(record)), key.name
        assert getattr(record, key.field) == getattr(getattr(read, key.record), key.field)
        default = key.default if not isinstance(key.default, dict) else {}
        assert getattr(record, key.field) == default, key.name


def test_an_unknown_key_is_reported_once_with_the_closest_name(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.jobledger]\nledgr = 'x.json'\n")
    with pytest.raises(ConfigError, match="ledgr: unknown key; did you mean 'ledger'"):
        load_config(cwd=tmp_path)
