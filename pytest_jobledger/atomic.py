"""Durable writes: a crash or a concurrent writer never leaves a half-written or lost file.

Every file the tool writes (the ledger, the overlay stub, reports) goes through
:func:`atomic_write`: a temporary file in the same folder, fsync, then an atomic rename over the
target, keeping the old file's permission bits. :func:`locked` serialises writers that
read-modify-write the same file. Given the project ``root``, neither ever writes outside it: a
symlinked target that resolves elsewhere is refused (:class:`~pytest_jobledger.paths.UnsafeFile`,
an ``OSError``), and no folder outside the root is created.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
import time
from collections.abc import Iterator
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
    folder.mkdir(parents=True, exist_ok=True)
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
    path: Path, data: str | bytes, *, encoding: str = "utf-8", root: Path | None = None
) -> None:
    """Replace ``path`` with ``data`` so that readers see either the old or the new file, whole."""
    payload = data.encode(encoding) if isinstance(data, str) else data
    path = _target(path, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode: int | None = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = None
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    tmp = Path(tmp_name)
    try:
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
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_folder(path.parent)


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
