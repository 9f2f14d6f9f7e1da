"""The one reader of a project file: each rung of the ladder says, in one sentence, why a file
cannot be read, with the limit the key table gives its key."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytest_jobledger.project import Config
from pytest_jobledger.project.files import limit_of, read_file
from pytest_jobledger.project.keys import BY_NAME

LEDGER = "generated/job_ledger.json"


def _config(root: Path) -> Config:
    (root / "generated").mkdir(exist_ok=True)
    return Config(root=root)


def test_a_missing_file_is_no_file(tmp_path: Path) -> None:
    read = read_file("ledger", _config(tmp_path))
    assert (read.exists, read.text, read.refused) == (False, None, None)
    assert read.display == LEDGER


def test_crlf_line_endings_are_undone(tmp_path: Path) -> None:
    (tmp_path / LEDGER).parent.mkdir()
    (tmp_path / LEDGER).write_bytes(b'{"jobs": []}\r\n')
    read = read_file("ledger", Config(root=tmp_path))
    assert read.text == '{"jobs": []}\n'
    assert read.raw == b'{"jobs": []}\r\n'  # what an audit line hashes: the bytes as committed


def test_not_utf8_says_where_and_why_once(tmp_path: Path) -> None:
    config = _config(tmp_path)
    (tmp_path / LEDGER).write_bytes(b"{}\n\xff\n")
    read = read_file("ledger", config)
    assert read.refused == "it is not UTF-8 text (line 2), so it is not a file jobledger wrote"
    assert read.line == 2


def test_the_limit_is_the_key_tables(tmp_path: Path) -> None:
    config = _config(tmp_path)
    assert limit_of("ledger", config) == BY_NAME["ledger"].limit == 64 * 1024 * 1024
    assert limit_of("overlay", config) == config.files.max_overlay_bytes
    with open(tmp_path / LEDGER, "wb") as handle:
        handle.truncate(64 * 1024 * 1024 + 1)  # sparse: no 64 MiB written
    read = read_file("ledger", config)
    assert "over the 67,108,864-byte limit" in (read.refused or "")


def test_a_symlink_out_of_the_root_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    config = _config(root)
    (tmp_path / "elsewhere.json").write_text("{}")
    (root / LEDGER).symlink_to(tmp_path / "elsewhere.json")
    read = read_file("ledger", config)
    assert "outside the project root" in (read.refused or "")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    config = _config(tmp_path)
    os.mkfifo(tmp_path / LEDGER)
    read = read_file("ledger", config)
    assert "not a regular file" in (read.refused or "")


def test_a_path_too_long_is_refused(tmp_path: Path) -> None:
    read = read_file("runbook", Config(root=tmp_path), path=tmp_path / ("a" * 5000))
    assert "over this system's limit" in (read.refused or "")
