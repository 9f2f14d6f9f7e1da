"""A path too long for the system is a located refusal before anything is read or created,
whichever key (or the writer) names it: never ``OSError: File name too long`` after a thousand
folders were made."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_jobledger.core.atomic import atomic_write, make_folder
from pytest_jobledger.core.errors import ConfigError
from pytest_jobledger.core.paths import UnsafeFile, read_regular
from pytest_jobledger.project import load_config

ONE_NAME = "a" * 5000
MANY_FOLDERS = "a/" * 2500 + "x"


@pytest.mark.parametrize("long", [ONE_NAME, MANY_FOLDERS], ids=["one-name", "many-folders"])
@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("cache_dir", "{}"),
        ("paths", "['{}']"),
        ("audit_log", "'{}'"),
        ("audit_log", "'sqlite:///{}'"),
        ("ledger", "'{}'"),
    ],
)
def test_a_configured_path_too_long_is_a_located_error(
    tmp_path: Path, key: str, value: str, long: str
) -> None:
    written = value.format(long) if value != "{}" else f"'{long}'"
    path = tmp_path / "pyproject.toml"
    path.write_text(f"[tool.jobledger]\n{key} = {written}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(cwd=tmp_path)
    message = str(caught.value)
    assert message.startswith(f"{path}:2: [tool.jobledger] {key}: ")
    assert "over this system's limit" in message
    assert len(message) < 400  # the path is not repeated in full
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pyproject.toml"]


@pytest.mark.parametrize("long", [ONE_NAME, MANY_FOLDERS], ids=["one-name", "many-folders"])
def test_the_writer_and_the_reader_refuse_it_before_creating_anything(
    tmp_path: Path, long: str
) -> None:
    target = tmp_path / long
    with pytest.raises(UnsafeFile, match="over this system's limit"):
        atomic_write(target, "x", root=tmp_path)
    with pytest.raises(UnsafeFile, match="over this system's limit"):
        make_folder(target, root=tmp_path)
    with pytest.raises(UnsafeFile, match="over this system's limit"):
        make_folder(target)  # a folder the operator named (JOBLEDGER_CACHE_DIR)
    with pytest.raises(UnsafeFile, match="over this system's limit"):
        read_regular(target, root=tmp_path)
    assert list(tmp_path.iterdir()) == []
