"""Append one line to the trail, and read it back.

An append holds the log folder's advisory lock (with a timeout), reads the last line to chain to
it, writes the new line with one ``O_APPEND`` write, fsyncs it, then rewrites the head. The log is
never rewritten or truncated: a write that fails part-way takes back only its own bytes, so the
file always ends with a whole line. Any failure is an :class:`AuditError`, and the caller gives
no verdict (no decision without a trail).
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.atomic import LockTimeout, atomic_write, locked, open_append
from ..core.paths import read_regular
from .chain import (
    CHAIN_KEYS,
    GENESIS,
    AuditError,
    decode_head,
    encode,
    encode_head,
    head_path,
    line_sha256,
    parse_record,
)

#: How long a verdict waits for another verdict's append before it is refused.
LOCK_TIMEOUT_S = 10.0

_CHUNK = 1024 * 1024


@dataclass(frozen=True)
class Since:
    """What a decision read: the trail's first ``lines`` events. ``changes`` says whether the
    events appended after them (their records, ``None`` for a line that is not JSON) change
    that decision; when they do, the append is refused (see :func:`append`)."""

    lines: int
    changes: Callable[[Sequence[Mapping[str, Any] | None]], bool]


@dataclass(frozen=True)
class Line:
    """One line of the trail: its 1-based number, its sha256, and its record (``None``: the line
    is not a JSON object, which ``--verify`` reports)."""

    number: int
    sha256: str
    record: Mapping[str, Any] | None
    #: ``False`` for a line past the head: an append stopped before its commit, so no verdict
    #: was given for it (the next append takes it back).
    committed: bool = True


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
    expect: Since | None = None,
) -> Line:
    """Append ``record`` (plus ``time`` and ``prev``) as the log's next line, or raise.

    The head's rename is the commit: a line is a verdict only once the head names it. When the
    head cannot be written (a full disk, a read-only head) the line is taken back before the
    verdict is refused; a line left past the head by a kill (between the line's fsync and the
    head's rename, when no verdict was shown) is taken back by the next append.
    """
    taken = sorted(set(record) & set(CHAIN_KEYS))
    if taken:
        raise ValueError(f"the log writes {', '.join(taken)} itself")
    display = _display(path, root)
    with _guard(display, "append to"), locked(path, root=root, timeout=_timeout(timeout)):
        head = _committed_head(path, root)
        _ignore_itself(path, root)
        fd = _open_log(path, root)
        try:
            count, prev, size = _uncommitted_taken_back(fd, head, display)
            if (
                expect is not None
                and count != expect.lines
                and expect.changes(_records_after(fd, expect.lines, count))
            ):
                raise moved(count, expect.lines, display)
            line = encode({**record, "time": clock(), "prev": prev})
            _append_bytes(fd, line, size)
            new = Line(count + 1, line_sha256(line), parse_record(line))
            try:
                atomic_write(head_path(path), encode_head(new.number, new.sha256), root=root)
            except BaseException as exc:
                error = _head_failed(fd, size, new.number, exc, display)
                if error is None:
                    raise
                raise error from exc
        finally:
            os.close(fd)
        return new


def _records_after(fd: int, first: int, count: int) -> list[Mapping[str, Any] | None]:
    """The records of lines ``first + 1`` to ``count`` (read under the append's lock)."""
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, _CHUNK):
        chunks.append(chunk)
    lines = b"".join(chunks).split(b"\n")[first:count]
    return [parse_record(line) for line in lines]


def moved(count: int, expect: int, display: str) -> AuditError:
    """The trail gained events between the read a decision rests on and its append."""
    return AuditError(
        f"the trail changed while this was decided (it holds {count} events, {expect} were "
        "read, and the new ones concern this job): nothing was appended; ask again",
        path=display,
    )


def _committed_head(path: Path, root: Path) -> tuple[int, str] | None:
    """What the head commits: ``(0, GENESIS)`` when there is no head file yet, ``None`` when the
    head is not one this tool wrote (then nothing is taken back; ``--verify`` says why)."""
    raw = _read_if_there(head_path(path), root)
    return (0, GENESIS) if raw is None else decode_head(raw)


def _uncommitted_taken_back(
    fd: int, head: tuple[int, str] | None, display: str
) -> tuple[int, str, int]:
    """The committed line count, the ``prev`` of the next line, and the log's size, after taking
    back one line past the head that continues it (an append killed before its commit)."""
    count, last, size = _scan(fd, display)
    if last is None:
        return 0, GENESIS, size
    if head is not None and count == head[0] + 1:
        record = parse_record(last)
        if record is not None and record.get("prev") == head[1]:
            size -= len(last) + 1
            os.ftruncate(fd, size)
            os.fsync(fd)
            return head[0], head[1], size
    return count, line_sha256(last), size


def _append_bytes(fd: int, line: bytes, size: int) -> None:
    """One ``O_APPEND`` write, fsynced; a failure takes back its own partial line."""
    try:
        _write_all(fd, line)
        os.fsync(fd)
    except BaseException:
        with suppress(OSError):
            os.ftruncate(fd, size)
        raise


def _head_failed(
    fd: int, size: int, number: int, exc: BaseException, display: str
) -> AuditError | None:
    """The line was written but not committed: take it back, so no line stands for a verdict
    the operator is told was refused."""
    reason = (exc.strerror or str(exc)) if isinstance(exc, OSError) else type(exc).__name__
    try:
        os.ftruncate(fd, size)
        os.fsync(fd)
    except OSError as undo:
        return AuditError(
            f"the log's head could not be updated ({reason}), and line {number} could not be "
            f"taken back ({undo.strerror or undo}): it stays past the head, which marks it as "
            "no verdict, and the next append takes it back",
            path=display,
        )
    if not isinstance(exc, Exception):
        return None  # an interrupt: the line is taken back, and the interrupt goes on
    return AuditError(
        f"the log's head could not be updated ({reason}); line {number} was taken back, so the "
        "log holds no line for this refused verdict",
        path=display,
    )


def write_new(path: Path, raw: Sequence[bytes], *, root: Path) -> None:
    """A new log holding exactly ``raw`` (verified lines, copied verbatim) and its head; refused
    when a log is already there (a copy never merges two trails)."""
    display = _display(path, root)
    with _guard(display, "write"), locked(path, root=root, timeout=LOCK_TIMEOUT_S):
        if _read_if_there(path, root) is not None:
            raise AuditError("a log is already there: copy into a new file", path=display)
        data = b"".join(line + b"\n" for line in raw)
        atomic_write(path, data, root=root)
        sha = line_sha256(raw[-1]) if raw else GENESIS
        atomic_write(head_path(path), encode_head(len(raw), sha), root=root)


def read_lines(path: Path, *, root: Path, timeout: float | None = None) -> list[Line]:
    """Every whole line of the log (``[]`` when there is none yet)."""
    data, head_raw = read_log(path, root=root, timeout=timeout)
    if data is None:
        return []
    lines = data.split(b"\n")[:-1]
    head = (0, GENESIS) if head_raw is None else decode_head(head_raw)
    committed = len(lines) if head is None or len(lines) != head[0] + 1 else head[0]
    return [
        Line(index, line_sha256(raw), parse_record(raw), index <= committed)
        for index, raw in enumerate(lines, 1)
    ]


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


#: The local trail's own folder (the default ``audit_log``) and what its ``.gitignore`` says.
LOCAL_FOLDER = ".jobledger"
GITIGNORE = "# The local trail of pytest-jobledger's verdicts: never commit it.\n*\n"


def _ignore_itself(path: Path, root: Path) -> None:
    """The local trail's folder ignores itself, as the content cache's does: a ``.gitignore`` of
    ``*``, written once, so ``git status`` never offers the trail for a commit. A trail
    configured elsewhere is the team's to place and is left as it is."""
    folder = path.parent
    if folder.name != LOCAL_FOLDER or (folder / ".gitignore").exists():
        return
    atomic_write(folder / ".gitignore", GITIGNORE, root=root)


def _timeout(timeout: float | None) -> float:
    return LOCK_TIMEOUT_S if timeout is None else timeout


def _open_log(path: Path, root: Path) -> int:
    """The trail open for reading and appending, through the one writer's rules."""
    return open_append(path, root=root)


def _scan(fd: int, display: str) -> tuple[int, bytes | None, int]:
    """How many whole lines the log holds, the last one (``None``: the log is empty), and the
    log's size."""
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
    return count, last, os.lseek(fd, 0, os.SEEK_END)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


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
