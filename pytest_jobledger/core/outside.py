"""The one writer's other half: files outside any project, which no root can bound.

The CI runner's own files (``$GITHUB_STEP_SUMMARY``, ``$GITHUB_OUTPUT``, ``$GITHUB_ENV``), a
private scratch folder this process made (:func:`tempfile.mkdtemp`), this user's own files (the
cache key) and the null device. Each is written without following a symlink and never to a FIFO,
device or folder; everything inside the project goes through :mod:`.atomic`.
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

from .paths import UnsafeFile

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def append_runner_file(path: Path, text: str) -> None:
    """Append ``text`` to a file the CI runner names (``$GITHUB_STEP_SUMMARY``, ``$GITHUB_OUTPUT``,
    ``$GITHUB_ENV``): outside the project by design, so not bound to its root, but never through
    a symlink, never to a FIFO, device or folder, and never waiting (the open does not block: a
    FIFO without a reader would hold the run forever)."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW | _NONBLOCK | _CLOEXEC
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        pass
    else:
        if stat.S_ISLNK(info.st_mode):
            raise UnsafeFile("it is a symlink; the runner's own file never is; nothing was written")
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFile(
                "it is not a regular file (a FIFO, device or folder); nothing was written"
            )
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as error:
        raise UnsafeFile(f"it cannot be opened ({error.strerror}); nothing was written") from error
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UnsafeFile(
                "it is not a regular file (a FIFO, device or folder); nothing was written"
            )
        os.set_blocking(fd, True)
        view = memoryview(text.encode("utf-8"))
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def write_scratch(folder: Path, name: str, text: str) -> Path:
    """Write a new file ``name`` (mode 0600) in a private scratch folder this process made
    (:func:`tempfile.mkdtemp`), never through a symlink and never over an existing file."""
    path = folder / name
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC
    fd = os.open(path, flags, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(text.encode("utf-8"))
    return path


def create_private_file(path: Path, data: bytes) -> None:
    """Create ``path`` (mode 0600, its folders 0700) outside any project, holding ``data``.

    For this user's own files, such as the cache key: the bytes are written to a fresh temporary
    file beside it and linked into place, so a reader never sees half of them, and a file already
    there (another process won the race) is kept as it is."""
    os.makedirs(path.parent, mode=0o700, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(temporary, path)
    except FileExistsError:
        pass
    finally:
        os.unlink(temporary)


def null_device() -> int:
    """A descriptor open for writing on the null device, where output nobody reads goes (the
    caller closes it)."""
    return os.open(os.devnull, os.O_WRONLY | _CLOEXEC)


def scratch_folder(parent: Path, name: str) -> Path:
    """A new empty folder ``name`` in a private scratch folder this process made."""
    path = parent / name
    os.mkdir(path, 0o700)
    return path
