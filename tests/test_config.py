"""``[tool.jobledger]``: defaults, and an error that names the key for every mistake."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_jobledger.core.errors import ConfigError
from pytest_jobledger.project import load_config


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "pyproject.toml"
    path.write_text(body, encoding="utf-8")
    return path


def test_defaults_without_a_table(tmp_path: Path) -> None:
    _write(tmp_path, "[project]\nname = 'x'\n")
    config = load_config(cwd=tmp_path)
    assert config.root == tmp_path.resolve()
    assert config.extraction.paths == (".",)
    assert config.ledger_path == tmp_path.resolve() / "generated/job_ledger.json"
    assert config.cells.required[0] == "idempotent"
    assert config.root / config.verdict.audit_log == tmp_path.resolve() / ".jobledger/audit.ndjson"
    assert config.verdict.bulk_retry_limit == 100


def test_the_verdict_settings(tmp_path: Path) -> None:
    _write(tmp_path, "[tool.jobledger]\naudit_log = 'ops/trail.ndjson'\nbulk_retry_limit = 0\n")
    config = load_config(cwd=tmp_path)
    assert config.root / config.verdict.audit_log == tmp_path.resolve() / "ops/trail.ndjson"
    assert config.verdict.bulk_retry_limit == 0


def test_root_is_nearest_pyproject_above_cwd(tmp_path: Path) -> None:
    _write(tmp_path, "[tool.jobledger]\npaths = ['src']\n")
    nested = tmp_path / "src" / "pkg"
    nested.mkdir(parents=True)
    config = load_config(cwd=nested)
    assert config.root == tmp_path.resolve()
    assert config.extraction.paths == ("src",)


def test_config_file_elsewhere(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    conf = tmp_path / "conf" / "jobledger.toml"
    conf.write_text(
        '[tool.jobledger.decorators."acme.jobs.job"]\nqueue = "queue"\nmax_retries = 1\n'
        'time_unit = "ms"\n'
    )
    config = load_config(root=tmp_path, config_file=conf)
    spec = config.extraction.decorators["acme.jobs.job"]
    assert spec.fields == {"queue": "queue", "max_retries": 1}
    assert spec.time_unit == "ms"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("[tool.jobledger]\npath = ['src']\n", "paths"),
        ("[tool.jobledger]\npaths = 'src'\n", "[tool.jobledger] paths: must be a list of strings"),
        ("[tool.jobledger]\npaths = ['../elsewhere']\n", "stay inside it"),
        ("[tool.jobledger]\njob_id = 'name'\n", "job_id: must be one of"),
        ("[tool.jobledger]\nmax_file_bytes = -1\n", "max_file_bytes"),
        ('[tool.jobledger.decorators."job"]\nqueue = "q"\n', "dotted qualified name"),
        ('[tool.jobledger.decorators."a.job"]\nmax_retry = "n"\n', "max_retry: unknown key"),
        ('[tool.jobledger.decorators."a.job"]\nframework = "sidekiq"\n', "framework: must be one"),
        ('[tool.jobledger.decorators."a.job"]\ntime_unit = "min"\n', "time_unit"),
        ('[tool.jobledger.decorators."a.job"]\nqueue = -1\n', "positional index must be 0"),
        ('[tool.jobledger.decorators."a.job"]\nqueue = true\n', "keyword name (string)"),
        ("[tool.jobledger\n", "not valid TOML"),
        ("[tool.jobledger]\naudit_log = '/var/log/audit.ndjson'\n", "audit_log: '/var/log"),
        ("[tool.jobledger]\naudit_log = '../audit.ndjson'\n", "stay inside it"),
        ("[tool.jobledger]\nbulk_retry_limit = -1\n", "bulk_retry_limit: must be a whole"),
        ("[tool.jobledger]\nbulk_retry_limit = '100'\n", "bulk_retry_limit: must be a whole"),
        ("[tool.jobledger]\nbulk_retry_limit = true\n", "bulk_retry_limit: must be a whole"),
        ("[tool.jobledger]\nbulk_retry_limit = 1000000\n", "over the ceiling of 10,000 jobs"),
    ],
)
def test_errors_name_the_key_and_file(tmp_path: Path, body: str, message: str) -> None:
    path = _write(tmp_path, body)
    with pytest.raises(ConfigError) as info:
        load_config(cwd=tmp_path)
    assert message in str(info.value)
    assert str(info.value).startswith(str(path))


def test_typo_gets_a_suggestion(tmp_path: Path) -> None:
    _write(tmp_path, "[tool.jobledger]\nexclued = []\n")
    with pytest.raises(ConfigError, match="did you mean 'exclude'"):
        load_config(cwd=tmp_path)


# -- a `paths` typo, unsound `required_cells`, and every error at its line -----------


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        ("[tool.jobledger]\npaths = ['scr']\n", 2, "'scr' does not exist under the project root"),
        ("[tool.jobledger]\nrequired_cells = []\n", 2, "required_cells: is empty"),
        ("[tool.jobledger]\nrequired_cells = ['']\n", 2, "required_cells: holds an empty name"),
        (
            "[tool.jobledger]\nrequired_cells = ['idempotent', 'idempotent']\n",
            2,
            "'idempotent' is listed twice",
        ),
        ("[tool.jobledger]\nrequired_cells = ['queue']\n", 2, "'queue' is a ledger field"),
        ("[tool.jobledger]\nrequired_cells = [' owner']\n", 2, "not a usable cell name"),
        ("[tool.jobledger]\nallow_empty = 'yes'\n", 2, "allow_empty: must be true or false"),
        (
            "[project]\nname = 'x'\n\n[tool.jobledger]  # ours\nledger = 'a.json'\n\n"
            "required_cells = ['max_retries']\n",
            7,
            "a ledger field",
        ),
    ],
)
def test_errors_point_at_the_key_line(tmp_path: Path, body: str, line: int, message: str) -> None:
    (tmp_path / "src").mkdir()
    path = _write(tmp_path, body)
    with pytest.raises(ConfigError) as info:
        load_config(cwd=tmp_path)
    assert message in str(info.value)
    assert str(info.value).startswith(f"{path}:{line}: ")


def test_a_missing_paths_entry_gets_a_suggestion(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    _write(tmp_path, "[tool.jobledger]\npaths = ['src', 'scr']\n")
    with pytest.raises(ConfigError, match=r"'scr' does not exist.*did you mean 'src'"):
        load_config(cwd=tmp_path)


def test_the_table_is_known_to_be_missing_or_present(tmp_path: Path) -> None:
    _write(tmp_path, "[project]\nname = 'x'\n")
    assert not load_config(cwd=tmp_path).configured
    _write(tmp_path, "[tool.jobledger]\n")
    assert load_config(cwd=tmp_path).configured
    assert not load_config(cwd=tmp_path).extraction.allow_empty
