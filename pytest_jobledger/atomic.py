"""Durable writes: a crash or a concurrent writer never leaves a half-written or lost file.

Every file the tool writes (the ledger, the overlay stub, reports) goes through
:func:`atomic_write`: a temporary file in the same folder, fsync, then an atomic rename over the
target, keeping the old file's permission bits. :func:`locked` serialises writers that
read-modify-write the same file. Given the project ``root``, neither ever writes outside it: a
symlinked target that resolves elsewhere is refused (:class:`~pytest_jobledger.paths.UnsafeFile`,
an ``OSError``), and no folder outside the root is created. A read-only file is never replaced,
and temporary files a killed writer left behind are cleaned up by the next write.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from .paths import UnsafeFile, outside_reason

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows has no flock; writes stay atomic, just unlocked
    fcntl = None  # type: ignore[assignment]


class LockTimeout(TimeoutError):
    """The lock was still held by another process when ``timeout`` ran out (an ``OSError``)."""


#: How often a waiter with a timeout tries the lock again; flock has no timed wait of its own.
_LOCK_POLL_S = 0.01


@contextlib.contextmanager
def locked(path: Path, *, root: Path | None = None, timeout: float | None = None) -> Iterator[None]:
    """Hold an exclusive advisory lock for ``path``.

    The lock is taken on the folder, so no lock file is left behind. Without ``timeout`` it waits
    as long as it takes; with one it raises :class:`LockTimeout` after about that many seconds.
    """
    folder = _target(path, root).parent
    make_folder(folder)
    if fcntl is None:  # pragma: no cover
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        _acquire(fd, folder, timeout)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _acquire(fd: int, folder: Path, timeout: float | None) -> None:
    if timeout is None:
        fcntl.flock(fd, fcntl.LOCK_EX)
        return
    deadline = time.monotonic() + timeout
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise LockTimeout(
                    f"another process held the lock on {folder} for more than {timeout:g} s"
                ) from None
            time.sleep(_LOCK_POLL_S)


def atomic_write(
    path: Path,
    data: str | bytes,
    *,
    encoding: str = "utf-8",
    root: Path | None = None,
    guard: Callable[[], None] | None = None,
) -> None:
    """Replace ``path`` with ``data`` so that readers see either the old or the new file, whole.

    A read-only target (no owner write bit) is refused, not replaced: whoever made it read-only
    meant it. ``guard`` runs with the new text written and synced, right before the rename: it
    raises to call the write off (the stub re-reads the overlay there, so an editor's save that
    landed while the stub worked is never overwritten). Temporary files that an earlier writer
    left behind (killed mid-write) are removed first (:func:`remove_stale_temporaries`).
    """
    payload = data.encode(encoding) if isinstance(data, str) else data
    path = _target(path, root)
    make_folder(path.parent)
    try:
        info = path.stat()
    except FileNotFoundError:
        mode: int | None = None
    else:
        if not stat.S_ISREG(info.st_mode):
            # Renaming over a device or a FIFO would replace it (as root, /dev/null itself).
            raise UnsafeFile(
                "it is not a regular file (a device, FIFO or folder); nothing was written (to "
                "print instead, use `-o -`)"
            )
        mode = stat.S_IMODE(info.st_mode)
    if mode is not None and not mode & stat.S_IWUSR:
        raise UnsafeFile(
            f"it is read-only (mode {mode:04o}): make it writable (chmod u+w {path.name}) if "
            "the tool may replace it"
        )
    remove_stale_temporaries(path)
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    tmp = Path(tmp_name)
    try:
        _hold(fd)
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
            if mode is not None:
                os.chmod(tmp, mode)
            else:
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(tmp, 0o666 & ~umask)
            if guard is not None:
                guard()
            os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_folder(path.parent)


# -- temporary files a killed writer left behind --------------------------------------------

#: A temporary file younger than this is never removed: its writer may not have locked it yet.
STALE_AFTER_S = 2.0
#: Where advisory locks do not exist, a temporary file is taken for stale only after an hour.
STALE_UNLOCKED_AFTER_S = 3600.0
#: What :func:`tempfile.mkstemp` puts between prefix and suffix.
_RANDOM = r"[a-z0-9_]{8}"


def _hold(fd: int) -> None:
    """Lock a new temporary file for as long as its writer lives (the kernel drops the lock when
    the process dies, however it dies), so a later run can tell a live writer's file from one a
    killed writer left."""
    if fcntl is not None:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def remove_stale_temporaries(path: Path) -> list[Path]:
    """Remove the tool's own temporary files for ``path`` (``.<name>.<8 random>.tmp``, nothing
    else) whose writer is gone: no process holds their lock and they are a few seconds old. Where
    locks are not available, only those older than an hour. Returns what was removed."""
    pattern = re.compile(re.escape(f".{path.name}.") + _RANDOM + re.escape(".tmp"))
    removed: list[Path] = []
    try:
        names = [entry.name for entry in os.scandir(path.parent) if pattern.fullmatch(entry.name)]
    except OSError:
        return removed
    now = time.time()
    for name in sorted(names):
        candidate = path.parent / name
        try:
            info = candidate.lstat()
            if not stat.S_ISREG(info.st_mode) or now - info.st_mtime < STALE_AFTER_S:
                continue
            if _writer_gone(candidate, now - info.st_mtime):
                candidate.unlink()
                removed.append(candidate)
        except OSError:
            continue
    return removed


def _writer_gone(candidate: Path, age: float) -> bool:
    if fcntl is None:  # pragma: no cover - Windows
        return age > STALE_UNLOCKED_AFTER_S
    fd = os.open(candidate, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False  # a live writer holds it
    except OSError:
        return age > STALE_UNLOCKED_AFTER_S  # no locks on this file system
    finally:
        os.close(fd)
    return True


def make_folder(folder: Path) -> None:
    """Create ``folder`` and its parents; a file where a folder must be is an :class:`UnsafeFile`
    that names it (not a ``FileExistsError`` traceback)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError) as exc:
        blocker = next(
            (part for part in (folder, *folder.parents) if part.exists() and not part.is_dir()),
            folder,
        )
        raise UnsafeFile(f"{blocker} is a file, not a folder; nothing was written") from exc


def _target(path: Path, root: Path | None) -> Path:
    """The file to replace: ``path`` with symlinks followed (renaming over a symlink would replace
    the link, not the file it names, and writers of one file must share one folder and one lock),
    refused when it leaves ``root``."""
    if root is not None:
        reason = outside_reason(path, root)
        if reason is not None:
            raise UnsafeFile(f"{reason}; nothing was written")
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _fsync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def exchange(first: Path, second: Path) -> bool:
    """Swap two files of one folder atomically (Linux ``renameat2`` with ``RENAME_EXCHANGE``, an
    OS call through libc): afterwards ``second`` holds what ``first`` held and ``first`` exactly
    what was displaced, so a writer can see whether someone saved meanwhile and put it back.
    Returns ``False`` where the platform or file system has no such call (the caller falls back
    to :func:`os.replace`); raises ``OSError`` for any other failure."""
    import ctypes
    import errno
    import sys

    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False  # a libc without renameat2 (glibc before 2.28, some musl builds)
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p]
    renameat2.argtypes += [ctypes.c_uint]
    renameat2.restype = ctypes.c_int
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(first), at_fdcwd, os.fsencode(second), rename_exchange):
        code = ctypes.get_errno()
        if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
            return False  # no such call, or a file system that cannot exchange
        raise OSError(code, os.strerror(code), str(first), None, str(second))
    return True
