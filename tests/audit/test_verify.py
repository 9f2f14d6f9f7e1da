"""``--verify`` names the first broken line of an edited, reordered or truncated trail, and
accepts a whole one (including one a crash left with its head one line behind)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_jobledger import audit

Lines = list[bytes]


def written(tmp_path: Path, count: int = 4) -> Path:
    path = tmp_path / ".jobledger" / "audit.ndjson"
    for number in range(1, count + 1):
        audit.append(path, {"job": f"j{number}", "verdict": "blocked"}, root=tmp_path)
    return path


def edit(index: int) -> Callable[[Lines], Lines]:
    def change(lines: Lines) -> Lines:
        lines[index] = lines[index].replace(b'"blocked"', b'"approved"')
        return lines

    return change


#: name -> (what is done to the log's lines, the line --verify names, words of its reason)
TAMPERING: dict[str, tuple[Callable[[Lines], Lines], int, str]] = {
    "an edited middle line": (edit(1), 2, "line 2 was edited"),
    "an edited first line": (edit(0), 1, "line 1 was edited"),
    "an edited last line": (edit(3), 4, "line 4 is not the line"),
    "two lines swapped": (lambda ls: [ls[0], ls[2], ls[1], ls[3]], 2, "belongs after line 3"),
    "the first two lines swapped": (lambda ls: [ls[1], ls[0], *ls[2:]], 1, "belongs after line 2"),
    "a line copied": (lambda ls: [*ls[:2], ls[1], *ls[2:]], 3, "reordered or copied"),
    "a middle line removed": (lambda ls: [ls[0], ls[2], ls[3]], 1, "lines after it were removed"),
    "the first line removed": (lambda ls: ls[1:], 1, "removed from the start"),
    "the last line removed": (lambda ls: ls[:3], 4, "removed from the end"),
    "all but the first removed": (lambda ls: ls[:1], 2, "removed from the end"),
    "a line that is not JSON": (lambda ls: [ls[0], b"oops", *ls[2:]], 2, "not an audit record"),
    "a blank line": (lambda ls: [ls[0], b"", *ls[1:]], 2, "not an audit record"),
}


@pytest.mark.parametrize("name", list(TAMPERING))
def test_tampering_is_named_at_the_first_broken_line(tmp_path: Path, name: str) -> None:
    path = written(tmp_path)
    change, line, says = TAMPERING[name]
    lines = change(path.read_bytes().split(b"\n")[:-1])
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    report = audit.verify(path, root=tmp_path)
    assert not report.ok
    assert report.broken == line, report.reason
    assert says in report.reason


def test_a_log_cut_mid_line_is_caught(tmp_path: Path) -> None:
    path = written(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 20])
    report = audit.verify(path, root=tmp_path)
    assert (report.broken, report.ok) == (4, False)
    assert "incomplete" in report.reason


def test_an_emptied_log_is_caught_by_its_head(tmp_path: Path) -> None:
    path = written(tmp_path)
    path.write_bytes(b"")
    report = audit.verify(path, root=tmp_path)
    assert report.broken == 1
    assert "records 4 lines and the log has 0" in report.reason


def test_a_deleted_log_is_caught_by_its_head(tmp_path: Path) -> None:
    path = written(tmp_path)
    path.unlink()
    assert "the log is missing" in audit.verify(path, root=tmp_path).reason


def test_a_whole_log_verifies_and_names_its_head(tmp_path: Path) -> None:
    path = written(tmp_path)
    report = audit.verify(path, root=tmp_path)
    assert report.ok
    assert report.lines == 4
    assert report.head == audit.read_lines(path, root=tmp_path)[-1].sha256


def test_a_head_one_line_behind_is_a_note_not_a_break(tmp_path: Path) -> None:
    """A crash between the fsynced line and the head's rewrite leaves the head one behind."""
    path = written(tmp_path, 2)
    head = audit.head_path(path)
    old_head = head.read_bytes()
    audit.append(path, {"job": "j3"}, root=tmp_path)
    head.write_bytes(old_head)
    report = audit.verify(path, root=tmp_path)
    assert report.ok
    assert "line 3 is past the head" in report.note


def test_lines_appended_behind_the_heads_back_are_caught(tmp_path: Path) -> None:
    path = written(tmp_path, 2)
    head = audit.head_path(path)
    old_head = head.read_bytes()
    audit.append(path, {"job": "j3"}, root=tmp_path)
    audit.append(path, {"job": "j4"}, root=tmp_path)
    head.write_bytes(old_head)
    report = audit.verify(path, root=tmp_path)
    assert report.broken == 4
    assert "without updating the head" in report.reason


def test_no_log_yet_is_fine(tmp_path: Path) -> None:
    report = audit.verify(tmp_path / ".jobledger" / "audit.ndjson", root=tmp_path)
    assert (report.ok, report.lines, report.head) == (True, 0, audit.GENESIS)


def test_a_head_that_is_not_a_head_is_reported(tmp_path: Path) -> None:
    path = written(tmp_path, 1)
    audit.head_path(path).write_text("{}\n")
    assert "not one jobledger wrote" in audit.verify(path, root=tmp_path).reason
