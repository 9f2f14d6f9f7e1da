"""Appending to the trail: chained lines, a head that follows, and a refusal (never a half line)
whenever the line cannot be written."""

from __future__ import annotations

import errno
import hashlib
import json
import os
from pathlib import Path

import pytest

from pytest_jobledger import audit
from pytest_jobledger.audit.log import read_log
from pytest_jobledger.core.atomic import locked

CLOCK = "2025-06-01T09:30:00.000Z"


def log_in(tmp_path: Path) -> Path:
    return tmp_path / ".jobledger" / "audit.ndjson"


def add(path: Path, root: Path, **fields: object) -> audit.Line:
    return audit.append(path, {"job": "a.b", **fields}, root=root, clock=lambda: CLOCK)


def test_lines_chain_from_the_genesis_value(tmp_path: Path) -> None:
    path = log_in(tmp_path)
    first = add(path, tmp_path, n=1)
    second = add(path, tmp_path, n=2)
    raw = path.read_bytes().split(b"\n")
    assert raw[-1] == b""
    assert (first.number, second.number) == (1, 2)
    one, two = json.loads(raw[0]), json.loads(raw[1])
    assert one["prev"] == audit.GENESIS == "0" * 64
    assert two["prev"] == hashlib.sha256(raw[0]).hexdigest() == first.sha256
    assert one["time"] == CLOCK
    assert list(one) == sorted(one)  # sorted keys, one JSON object per line
    head = json.loads(audit.head_path(path).read_text())
    assert head == {"lines": 2, "sha256": second.sha256}
    assert [line.record for line in audit.read_lines(path, root=tmp_path)] == [one, two]


def test_a_record_cannot_bring_its_own_prev(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="prev"):
        add(log_in(tmp_path), tmp_path, prev="0" * 64)


def test_text_is_escaped_so_every_record_is_one_ascii_line(tmp_path: Path) -> None:
    path = log_in(tmp_path)
    add(path, tmp_path, actor="x\n::error::forged\u2028é")
    data = path.read_bytes()
    assert data.count(b"\n") == 1
    assert data.isascii()


def test_a_location_nobody_can_write_fails_closed(tmp_path: Path) -> None:
    """CI runs as root, which chmod does not stop: the log's folder is a regular file instead,
    which no user (root included) can create a file inside."""
    (tmp_path / ".jobledger").write_text("not a folder\n")
    with pytest.raises(audit.AuditError, match="cannot append to the audit log"):
        add(log_in(tmp_path), tmp_path)
    assert (tmp_path / ".jobledger").read_text() == "not a folder\n"


def test_a_held_lock_times_out_and_fails_closed(tmp_path: Path) -> None:
    path = log_in(tmp_path)
    add(path, tmp_path)
    before = path.read_bytes()
    with locked(path, root=tmp_path), pytest.raises(audit.AuditError, match="held the lock"):
        audit.append(path, {"job": "a.b"}, root=tmp_path, timeout=0.05)
    assert path.read_bytes() == before


def test_a_full_disk_takes_back_its_own_partial_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = log_in(tmp_path)
    add(path, tmp_path)
    before = path.read_bytes()
    real_write = os.write

    def half_then_full(fd: int, data: bytes | memoryview) -> int:
        if len(data) > 8:
            return real_write(fd, bytes(data)[:8])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", half_then_full)
    with pytest.raises(audit.AuditError, match="No space left on device"):
        add(path, tmp_path)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert audit.verify(path, root=tmp_path).ok
    assert add(path, tmp_path).number == 2


def test_a_log_damaged_mid_line_is_not_appended_to(tmp_path: Path) -> None:
    path = log_in(tmp_path)
    add(path, tmp_path)
    with path.open("ab") as handle:
        handle.write(b'{"half": ')
    before = path.read_bytes()
    with pytest.raises(audit.AuditError, match="line 2 of the log is incomplete"):
        add(path, tmp_path)
    assert path.read_bytes() == before


def test_a_log_symlink_leaving_the_root_is_refused(tmp_path: Path) -> None:
    root, outside = tmp_path / "project", tmp_path / "elsewhere.ndjson"
    (root / ".jobledger").mkdir(parents=True)
    os.symlink(outside, root / ".jobledger" / "audit.ndjson")
    with pytest.raises(audit.AuditError, match="outside the project root"):
        add(root / ".jobledger" / "audit.ndjson", root)
    assert not outside.exists()


def test_a_fifo_is_refused_without_hanging(tmp_path: Path) -> None:
    path = log_in(tmp_path)
    path.parent.mkdir()
    os.mkfifo(path)
    with pytest.raises(audit.AuditError, match="not a regular file"):
        add(path, tmp_path)


def test_reading_a_missing_log_reads_nothing_and_creates_nothing(tmp_path: Path) -> None:
    path = log_in(tmp_path)
    assert audit.read_lines(path, root=tmp_path) == []
    assert read_log(path, root=tmp_path) == (None, None)
    assert not path.parent.exists()
