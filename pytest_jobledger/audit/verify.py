"""``--verify``: walk the chain and the head, and name the first line that breaks them.

An edited line no longer hashes to what the next line's ``prev`` (or, for the last line, the
head) says; a line whose ``prev`` names another line of the file was moved; a line removed from
the middle breaks the next link; lines removed from the end leave the head pointing past the log.
A check reads the file, never repairs it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .chain import GENESIS, decode_head, head_path, line_sha256, parse_record
from .log import read_log


@dataclass(frozen=True)
class Report:
    """What ``--verify`` found: the line count, the last line's sha256 (:data:`GENESIS` for an
    empty log), and the first break (``broken`` is its line, ``reason`` what it means)."""

    lines: int
    head: str
    broken: int | None = None
    reason: str = ""
    note: str = ""

    @property
    def ok(self) -> bool:
        return not self.reason


def verify(path: Path, *, root: Path, timeout: float | None = None) -> Report:
    data, head_raw = read_log(path, root=root, timeout=timeout)
    return check_chain(data, head_raw, head_path(path).name)


def check_chain(data: bytes | None, head_raw: bytes | None, head_name: str) -> Report:
    """The report for a log's bytes and its head's (``None``: no such file). Pure."""
    head = decode_head(head_raw) if head_raw is not None else None
    if head_raw is not None and head is None:
        return Report(0, GENESIS, None, f"the head file {head_name} is not one jobledger wrote")
    if data is None:
        if head is not None and head[0] > 0:
            return Report(
                0, GENESIS, 1, f"the log is missing, but {head_name} records {head[0]} lines"
            )
        return Report(0, GENESIS, note="no audit log yet")
    *lines, tail = data.split(b"\n")
    shas = [line_sha256(line) for line in lines]
    count = len(lines)
    last = shas[-1] if shas else GENESIS
    first_of: dict[str, int] = {}
    for number, sha in enumerate(shas, 1):
        first_of.setdefault(sha, number)
    for number, line in enumerate(lines, 1):
        prev = _prev(line)
        if prev is None:
            return Report(
                count,
                last,
                number,
                f"line {number} is not an audit record (a JSON object with a prev)",
            )
        expected = GENESIS if number == 1 else shas[number - 2]
        if prev == expected:
            continue
        moved = first_of.get(prev)
        if moved is not None:
            return Report(
                count,
                last,
                number,
                f"line {number} belongs after line {moved} (its prev is line {moved}'s "
                "sha256): lines were reordered or copied",
            )
        if number == 1:
            return Report(
                count,
                last,
                1,
                "line 1 does not start the chain (its prev is not the genesis value): lines were "
                "removed from the start of the log",
            )
        return Report(
            count,
            last,
            number - 1,
            f"line {number - 1} was edited, or lines after it were removed: line {number}'s "
            f"prev is not line {number - 1}'s sha256",
        )
    if tail:
        return Report(
            count,
            last,
            count + 1,
            f"line {count + 1} is incomplete (the file does not end with a newline): the log "
            "was cut short",
        )
    return _check_head(count, shas, head, head_name)


def _check_head(count: int, shas: list[str], head: tuple[int, str] | None, name: str) -> Report:
    last = shas[-1] if shas else GENESIS
    recorded, sha = head if head is not None else (0, GENESIS)
    if recorded > count:
        return Report(
            count,
            last,
            count + 1,
            f"line {count + 1} is missing: {name} records {recorded} lines and the log has "
            f"{count}, so lines were removed from the end",
        )
    at = shas[recorded - 1] if recorded else GENESIS
    if at != sha:
        return Report(
            count,
            last,
            recorded,
            f"line {recorded} is not the line {name} recorded (its sha256 differs): it was "
            "edited or replaced",
        )
    if count - recorded > 1:
        missing = "is missing" if head is None else f"records {recorded} lines"
        return Report(
            count,
            last,
            recorded + 2,
            f"line {recorded + 2} was added without updating the head ({name} {missing}; "
            "jobledger rewrites it after every line)",
        )
    note = ""
    if count - recorded == 1:
        note = (
            f"line {count} is past the head: an append stopped before it updated {name}, so "
            "no verdict was given for it; the next append takes it back"
        )
    return Report(count, last, note=note)


def _prev(line: bytes) -> str | None:
    data = parse_record(line)
    prev = data.get("prev") if data is not None else None
    return prev if isinstance(prev, str) else None
