"""Append one line to the trail, and read it back.

An append holds the log folder's advisory lock (with a timeout), reads the last line to chain to
it, writes the new line with one ``O_APPEND`` write, fsyncs it, then rewrites the head. The log is
never rewritten or truncated: a write that fails part-way takes back only its own bytes, so the
file always ends with a whole line. Any failure is an :class:`AuditError`, and the caller gives
no verdict (no decision without a trail).
"""

from __future__ import annotations

import datetime
import json
import os
import stat
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..atomic import LockTimeout, atomic_write, locked, open_append
from ..paths import UnsafeFile, read_regular
from .chain import CHAIN_KEYS, GENESIS, AuditError, encode, encode_head, head_path, line_sha256

#: How long a verdict waits for another verdict's append before it is refused.
LOCK_TIMEOUT_S = 10.0

_CHUNK = 1024 * 1024


@dataclass(frozen=True)
class Line:
    """One line of the trail: its 1-based number, its sha256, and its record (``None``: the line
    is not a JSON object, which ``--verify`` reports)."""

    number: int
    sha256: str
    record: Mapping[str, Any] | None


def utc_now() -> str:
    """The time an append is written, in UTC, to the millisecond."""
    now = datetime.datetime.now(datetime.timezone.utc)
    return now.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def append(
    path: Path,
    record: Mapping[str, Any],
    *,
    root: Path,
    timeout: float | None = None,
    clock: Callable[[], str] = utc_now,
) -> Line:
    """Append ``record`` (plus ``time`` and ``prev``) as the log's next line, or raise."""
    taken = sorted(set(record) & set(CHAIN_KEYS))
    if taken:
        raise ValueError(f"the log writes {', '.join(taken)} itself")
    display = _display(path, root)
    with _guard(display, "append to"), locked(path, root=root, timeout=_timeout(timeout)):
        count, last = _append_line(path, record, root, clock, display)
        line = Line(count, line_sha256(last), json.loads(last))
        try:
            atomic_write(head_path(path), encode_head(count, line.sha256), root=root)
        except OSError as exc:
            raise AuditError(
                f"line {count} was written, but the log's head could not be updated "
                f"({exc.strerror or exc})",
                path=display,
            ) from exc
        return line


def read_lines(path: Path, *, root: Path, timeout: float | None = None) -> list[Line]:
    """Every whole line of the log (``[]`` when there is none yet)."""
    data, _ = read_log(path, root=root, timeout=timeout)
    if data is None:
        return []
    lines = data.split(b"\n")[:-1]
    return [Line(index, line_sha256(raw), _record(raw)) for index, raw in enumerate(lines, 1)]


def read_log(
    path: Path, *, root: Path, timeout: float | None = None
) -> tuple[bytes | None, bytes | None]:
    """The log's bytes and its head's (each ``None`` when there is no such file), read together
    under the lock, so no half-written line or lagging head is seen."""
    display = _display(path, root)
    if not path.parent.is_dir():
        return None, None
    with _guard(display, "read"), locked(path, root=root, timeout=_timeout(timeout)):
        return _read_if_there(path, root), _read_if_there(head_path(path), root)


def _read_if_there(path: Path, root: Path) -> bytes | None:
    try:
        return read_regular(path, root=root)
    except FileNotFoundError:
        return None


def _timeout(timeout: float | None) -> float:
    return LOCK_TIMEOUT_S if timeout is None else timeout


def _append_line(
    path: Path, record: Mapping[str, Any], root: Path, clock: Callable[[], str], display: str
) -> tuple[int, bytes]:
    fd = open_append(path, root=root)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFile("it is not a regular file")
        os.set_blocking(fd, True)
        count, last = _scan(fd, display)
        prev = line_sha256(last) if last is not None else GENESIS
        line = encode({**record, "time": clock(), "prev": prev})
        size = os.lseek(fd, 0, os.SEEK_END)
        try:
            _write_all(fd, line)
            os.fsync(fd)
        except BaseException:
            with suppress(OSError):  # take back our own partial line, nothing before it
                os.ftruncate(fd, size)
            raise
        return count + 1, line
    finally:
        os.close(fd)


def _scan(fd: int, display: str) -> tuple[int, bytes | None]:
    """How many whole lines the log holds, and the last one (``None``: the log is empty)."""
    os.lseek(fd, 0, os.SEEK_SET)
    count, last, pending = 0, None, b""
    while True:
        chunk = os.read(fd, _CHUNK)
        if not chunk:
            break
        parts = (pending + chunk).split(b"\n")
        pending = parts.pop()
        if parts:
            count += len(parts)
            last = parts[-1]
    if pending:
        raise AuditError(
            f"line {count + 1} of the log is incomplete (the file does not end with a newline); "
            "it was damaged outside jobledger. Run `jobledger audit --verify`, keep the file as "
            "evidence, and point audit_log at a new file",
            path=display,
        )
    return count, last


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _record(raw: bytes) -> Mapping[str, Any] | None:
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _display(path: Path, root: Path) -> str:
    return os.path.relpath(path, root).replace(os.sep, "/")


@contextmanager
def _guard(display: str, verb: str) -> Iterator[None]:
    """Every ``OSError`` (read-only folder, disk full, a lock held too long) as an AuditError."""
    try:
        yield
    except LockTimeout as exc:
        raise AuditError(
            f"cannot {verb} the audit log: {exc} (is another verdict stuck?)", path=display
        ) from exc
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise AuditError(f"cannot {verb} the audit log: {reason}", path=display) from exc
