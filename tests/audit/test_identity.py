"""Which trail this is: ``audit init`` opens an empty trail with its identity (once), a trail
begun without one is named by its first line, and two trails never share an identity."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_jobledger import audit
from pytest_jobledger.cli import main


def _trail(root: Path) -> audit.Store:
    return audit.open_store(".jobledger/audit.ndjson", root=root, env={})


def test_audit_init_writes_the_identity_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(audit.ENV_URL, raising=False)
    (tmp_path / "pyproject.toml").write_text("[tool.jobledger]\n")
    assert main(["audit", "init", "--root", str(tmp_path)]) == 0
    first = capsys.readouterr().out
    assert "(written as its first line)" in first
    assert main(["audit", "init", "--root", str(tmp_path)]) == 0
    again = capsys.readouterr().out
    assert "(written as its first line)" not in again
    lines = _trail(tmp_path).lines()
    assert [(line.record or {}).get("event") for line in lines] == ["trail"]
    identity = audit.identity_of(lines)
    assert identity is not None
    assert identity in first
    assert identity in again
    assert main(["audit", "--root", str(tmp_path)]) == 0
    assert f"TRAIL {identity} opened by audit init" in capsys.readouterr().out


def test_a_trail_begun_without_one_is_named_by_its_first_line(tmp_path: Path) -> None:
    store = _trail(tmp_path)
    assert audit.identity_of(store.lines()) is None
    first = store.append({"event": "verdict", "job": "a"})
    store.append({"event": "verdict", "job": "b"})
    assert audit.identity_of(store.lines()) == first.sha256
    assert audit.identify(store, by="test") == (first.sha256, False)
    assert len(store.lines()) == 2


def test_two_trails_never_share_an_identity(tmp_path: Path) -> None:
    made = set()
    for name in ("one", "two", "three"):
        (tmp_path / name).mkdir()
        identity, wrote = audit.identify(_trail(tmp_path / name), by="test")
        assert wrote
        made.add(identity)
    assert len(made) == 3


def test_the_head_is_the_last_committed_line(tmp_path: Path) -> None:
    store = _trail(tmp_path)
    assert audit.head_of(store.lines()) == audit.GENESIS
    store.append({"event": "verdict", "job": "a"})
    last = store.append({"event": "verdict", "job": "b"})
    assert audit.head_of(store.lines()) == last.sha256
