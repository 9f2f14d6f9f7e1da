"""Issue 27, item 6: a head that cannot be written, and a trail that holds hostile lines.

The head's rename commits a line. When it fails (a full disk, a read-only head) the line is
taken back before the verdict is refused; a line a kill left past the head is taken back by the
next append. So no line stands for a verdict the operator was told was refused, and two failures
in a row never read as tampering. A line or head thousands of brackets deep is a located finding.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest
from repo_files import copy_tracked

from pytest_jobledger import audit
from pytest_jobledger.audit import log as audit_log
from pytest_jobledger.cli import main

REPO = Path(__file__).resolve().parents[2]
DEEP = 100_000


def log_in(root: Path) -> Path:
    return root / ".jobledger" / "audit.ndjson"


def add(root: Path, job: str = "a.b") -> audit.Line:
    return audit.append(log_in(root), {"job": job}, root=root)


def disk_full(*args: Any, **kwargs: Any) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_at_the_head_takes_the_line_back_twice_in_a_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    add(tmp_path)
    add(tmp_path)
    before = log_in(tmp_path).read_bytes()
    head = audit.head_path(log_in(tmp_path)).read_bytes()
    monkeypatch.setattr(audit_log, "atomic_write", disk_full)
    for _ in range(2):
        with pytest.raises(audit.AuditError, match="line 3 was taken back") as caught:
            add(tmp_path, "refused")
        assert "No space left on device" in str(caught.value)
        assert log_in(tmp_path).read_bytes() == before
    monkeypatch.undo()
    assert audit.head_path(log_in(tmp_path)).read_bytes() == head
    report = audit.verify(log_in(tmp_path), root=tmp_path)
    assert (report.ok, report.lines, report.note) == (True, 2, "")
    assert add(tmp_path).number == 3


def test_a_read_only_head_takes_the_line_back(tmp_path: Path) -> None:
    add(tmp_path)
    before = log_in(tmp_path).read_bytes()
    head = audit.head_path(log_in(tmp_path))
    head.chmod(0o444)
    with pytest.raises(audit.AuditError, match=r"read-only.*line 2 was taken back"):
        add(tmp_path, "refused")
    assert log_in(tmp_path).read_bytes() == before
    head.chmod(0o644)
    assert audit.verify(log_in(tmp_path), root=tmp_path).note == ""


def test_when_even_the_take_back_fails_the_next_append_recovers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worst case: the head fails and the line cannot be truncated either, twice. The line
    stays past the head, listed as not committed; ``--verify`` passes with a note (no tampering
    happened); the next append that can truncate takes it back."""
    add(tmp_path)

    def no_truncate(fd: int, size: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(audit_log, "atomic_write", disk_full)
    monkeypatch.setattr(os, "ftruncate", no_truncate)
    with pytest.raises(audit.AuditError, match="could not be taken back"):
        add(tmp_path, "refused-1")
    with pytest.raises(audit.AuditError, match="Input/output error"):
        add(tmp_path, "refused-2")  # it cannot take line 2 back, so it writes nothing
    monkeypatch.undo()
    lines = audit.read_lines(log_in(tmp_path), root=tmp_path)
    assert [(line.number, line.committed) for line in lines] == [(1, True), (2, False)]
    report = audit.verify(log_in(tmp_path), root=tmp_path)
    assert report.ok
    assert "no verdict was given for it" in report.note
    line = add(tmp_path, "given")
    assert line.number == 2
    records = [item.record or {} for item in audit.read_lines(log_in(tmp_path), root=tmp_path)]
    assert [record["job"] for record in records] == ["a.b", "given"]
    assert audit.verify(log_in(tmp_path), root=tmp_path).note == ""


def test_a_refused_verdict_leaves_no_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "shop"
    copy_tracked(REPO / "examples" / "celery", root)
    ask = ["verdict", "acme_shop.celery_app.ping", "--root", str(root), "--action", "retry"]
    assert main(ask) == 3
    before = log_in(root).read_bytes()
    capsys.readouterr()
    monkeypatch.setattr(audit_log, "atomic_write", disk_full)
    assert main(ask) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "line 2 was taken back" in err
    assert "No verdict was given" in err
    assert "Traceback" not in err
    assert log_in(root).read_bytes() == before


def test_a_line_past_the_head_is_listed_as_no_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add(tmp_path)
    head = audit.head_path(log_in(tmp_path)).read_bytes()
    add(tmp_path, "killed-before-commit")
    audit.head_path(log_in(tmp_path)).write_bytes(head)  # as a kill before the rename leaves it
    assert main(["audit", "--root", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "not committed: no verdict was given" in out[1]
    assert "not committed" not in out[0]
    assert main(["audit", "--root", str(tmp_path), "--verify"]) == 0
    assert "no verdict was given for it" in capsys.readouterr().out


@pytest.mark.parametrize(
    "hostile",
    [
        b"[" * DEEP + b"]" * DEEP,
        b'{"prev": ' + b"[" * DEEP + b"]" * DEEP + b"}",
        b'{"n": ' + b"9" * 5000 + b"}",
        b'{"bad": "\xff"}',
    ],
    ids=["deep-array", "deep-object", "long-int", "not-utf8"],
)
def test_a_hostile_line_is_located_not_a_traceback(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    hostile: bytes,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # paths are shown from the current folder
    add(tmp_path)
    with log_in(tmp_path).open("ab") as handle:
        handle.write(hostile + b"\n")
    assert main(["audit", "--root", str(tmp_path)]) == 0
    assert "(not an audit record" in capsys.readouterr().out
    assert main(["audit", "--root", str(tmp_path), "--verify"]) == 1
    out, err = capsys.readouterr()
    assert out.startswith(".jobledger/audit.ndjson:2: line 2 is not an audit record"), out
    assert "Traceback" not in err


def test_a_deep_head_is_located_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add(tmp_path)
    audit.head_path(log_in(tmp_path)).write_bytes(b"[" * DEEP + b"]" * DEEP)
    assert main(["audit", "--root", str(tmp_path), "--verify"]) == 1
    assert "is not one jobledger wrote" in capsys.readouterr().out
    assert main(["audit", "--root", str(tmp_path)]) == 0
