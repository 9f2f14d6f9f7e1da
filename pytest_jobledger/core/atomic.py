"""The one writer: every file the tool writes, and every folder it makes, goes through here.

Writes are durable (a temporary file in the same folder, fsync, then an atomic rename over the
target, keeping the old file's permission bits), and :func:`locked` serialises writers that
read-modify-write one file. The scanned tree may be a hostile pull request, so a write is bound
to the project ``root``: the path is walked one folder at a time below the root, each folder
opened without following a symlink (``O_NOFOLLOW`` on a folder descriptor, so the checks and the
write see the same folders), and the write is refused
(:class:`~pytest_jobledger.core.paths.UnsafeFile`,
an ``OSError``) when the target

- lies outside the root (unless the operator named it on the command line: ``-o PATH``),
- has a ``.git`` folder on its way (any spelling the file system folds to ``.git``),
- has a symlink at any level below the root, or is one,
- is not a regular file (a FIFO, a device, a folder), found by ``lstat``, never by opening it.

A read-only file is never replaced, and temporary files a killed writer left behind are cleaned
up by the next write. Files outside any project have their own named entries: the runner's files
(``$GITHUB_STEP_SUMMARY`` and its kin), a private scratch folder and this user's own files: they
are written by :mod:`.outside`, the writer's other half. ``tests/test_one_writer.py`` fails on any
write elsewhere in the package.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .paths import UnsafeFile, is_git_name, real, too_long

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows has no flock; writes stay atomic, just unlocked
    fcntl = None  # type: ignore[assignment]


class LockTimeout(TimeoutError):
    """The lock was still held by another process when ``timeout`` ran out (an ``OSError``)."""


#: How often a waiter with a timeout tries the lock again; flock has no timed wait of its own.
_LOCK_POLL_S = 0.01

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_FOLDER_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW | _CLOEXEC


@dataclass(frozen=True)
class _Place:
    """Where a write lands: an open descriptor of its folder (every folder on the way checked),
    the file's name in it, and its status when it exists (``None``: it does not, yet)."""

    folder_fd: int
    folder: Path
    name: str
    existing: os.stat_result | None

    @property
    def path(self) -> Path:
        return self.folder / self.name


def refusal(path: Path, *, root: Path, named_by_operator: bool = False) -> str | None:
    """Why the tool would not write ``path`` (a sentence for a message), or ``None``; nothing is
    created. For a check before a long run (a report written at its end)."""
    try:
        with _place(path, root, named_by_operator=named_by_operator, create=False):
            return None
    except FileNotFoundError:
        return None  # a folder on the way is missing: the write will make it
    except UnsafeFile as error:
        return error.strerror
    except OSError as error:
        return error.strerror or str(error)


def _start(path: Path, root: Path, named_by_operator: bool) -> tuple[Path, list[str]]:
    """The real folder a walk starts from and the names below it (lexical: ``..`` is applied to
    the written path, never through a symlink)."""
    long = too_long(path)
    if long is not None:
        raise UnsafeFile(f"{long}; nothing was written")
    absolute = Path(os.path.abspath(path))
    for base in (Path(os.path.abspath(root)), real(root)):
        if absolute == base or base in absolute.parents:
            return real(base), list(absolute.relative_to(base).parts)
    if not named_by_operator:
        raise UnsafeFile(
            f"it resolves to {real(absolute)}, outside the project root {real(root)}; nothing "
            "was written"
        )
    # A path the operator typed may leave the project; its own folders are still checked.
    for name in absolute.parts[1:]:
        if is_git_name(name):
            raise UnsafeFile(f"it is inside a {name!r} folder; nothing was written")
    existing = absolute.parent
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    return real(existing), list(absolute.relative_to(existing).parts)


@contextlib.contextmanager
def _place(
    path: Path, root: Path, *, named_by_operator: bool = False, create: bool = True
) -> Iterator[_Place]:
    base, names = _start(path, root, named_by_operator)
    if not names:
        raise UnsafeFile("it is the project root folder itself; nothing was written")
    for name in names:
        if is_git_name(name):
            raise UnsafeFile(
                f"it is inside a {name!r} folder, which belongs to git (hooks and config there "
                "run programs); nothing was written"
            )
    with _open_folder(base, names[:-1], create) as (fd, folder):
        existing = _lstat(fd, names[-1])
        if existing is not None:
            _refuse_special(existing.st_mode, folder / names[-1], base)
        yield _Place(fd, folder, names[-1], existing)


@contextlib.contextmanager
def _open_folder(base: Path, names: list[str], create: bool) -> Iterator[tuple[int, Path]]:
    """A descriptor of ``base / names``, each folder below ``base`` entered without following a
    symlink (and made when missing and ``create``)."""
    fd = os.open(base, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC)
    folder = base
    try:
        for name in names:
            fd, folder = _enter(fd, folder, name, create, base)
        yield fd, folder
    finally:
        os.close(fd)


def _lstat(fd: int, name: str) -> os.stat_result | None:
    try:
        return os.stat(name, dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        return None


def _enter(fd: int, folder: Path, name: str, create: bool, base: Path) -> tuple[int, Path]:
    """Open the folder ``name`` below ``fd`` (made when missing and ``create``); the old
    descriptor is closed. A symlink or a file there is refused."""
    path = folder / name
    info = _lstat(fd, name)
    if info is None:
        if not create:
            raise FileNotFoundError(2, "a folder on the way does not exist", str(path))
        with contextlib.suppress(FileExistsError):
            os.mkdir(name, 0o777, dir_fd=fd)
        info = _lstat(fd, name)
        if info is None:  # pragma: no cover - removed as soon as it was made
            raise UnsafeFile(f"{path} vanished while it was made; nothing was written")
    if stat.S_ISLNK(info.st_mode):
        raise UnsafeFile(_symlink_refusal(path, base))
    if not stat.S_ISDIR(info.st_mode):
        raise UnsafeFile(f"{path} is a file, not a folder; nothing was written")
    try:
        inner = os.open(name, _FOLDER_FLAGS, dir_fd=fd)
    except OSError as error:
        raise UnsafeFile(
            f"{path} cannot be opened as a folder ({error.strerror}); nothing was written"
        ) from error
    os.close(fd)
    return inner, path


def _symlink_refusal(path: Path, base: Path) -> str:
    """Why a symlink on the way is refused, with where it leads (outside the root, or not)."""
    target = real(path)
    where = "" if target == base or base in target.parents else ", outside the project root"
    return (
        f"{path} is a symlink (it resolves to {target}{where}); the tool never writes through "
        "one; nothing was written"
    )


def _refuse_special(mode: int, path: Path, base: Path) -> None:
    if stat.S_ISLNK(mode):
        raise UnsafeFile(_symlink_refusal(path, base))
    if not stat.S_ISREG(mode):
        # Renaming over a device or a FIFO would replace it (as root, /dev/null itself).
        raise UnsafeFile(
            "it is not a regular file (a device, FIFO or folder); nothing was written (to "
            "print instead, use `-o -`)"
        )


@contextlib.contextmanager
def locked(
    path: Path,
    *,
    root: Path,
    timeout: float | None = None,
    named_by_operator: bool = False,
) -> Iterator[None]:
    """Hold an exclusive advisory lock for ``path``.

    The lock is taken on the folder, so no lock file is left behind. Without ``timeout`` it waits
    as long as it takes; with one it raises :class:`LockTimeout` after about that many seconds.
    """
    with _place(path, root, named_by_operator=named_by_operator) as place:
        if fcntl is None:  # pragma: no cover
            yield
            return
        _acquire(place.folder_fd, place.folder, timeout)
        try:
            yield
        finally:
            fcntl.flock(place.folder_fd, fcntl.LOCK_UN)


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
    root: Path,
    encoding: str = "utf-8",
    guard: Callable[[], None] | None = None,
    named_by_operator: bool = False,
    expected: bytes | None = None,
) -> bool:
    """Replace ``path`` with ``data`` so that readers see either the old or the new file, whole.

    ``path`` must stay inside ``root`` unless ``named_by_operator`` (a ``-o PATH`` typed on the
    command line, never a configured path). A read-only target (no owner write bit) is refused,
    not replaced: whoever made it read-only meant it. ``guard`` runs with the new text written and
    synced, right before the rename: it raises to call the write off (the stub re-reads the
    overlay there, so an editor's save that landed while the stub worked is never overwritten).
    Temporary files that an earlier writer left behind (killed mid-write) are removed first
    (:func:`remove_stale_temporaries`).

    With ``expected`` (the bytes the caller read), the new file is swapped in with
    :func:`exchange` where the platform can, and what it displaced is compared: a save that
    landed after ``guard`` is put back and :class:`ChangedMeanwhile` raised. Returns whether that
    swap guaranteed it (``False``: a plain rename, after ``guard``).
    """
    payload = data.encode(encoding) if isinstance(data, str) else data
    with _place(path, root, named_by_operator=named_by_operator) as place:
        mode = stat.S_IMODE(place.existing.st_mode) if place.existing is not None else None
        if mode is not None and not mode & stat.S_IWUSR:
            raise UnsafeFile(
                f"it is read-only (mode {mode:04o}): make it writable (chmod u+w {place.name}) "
                "if the tool may replace it"
            )
        remove_stale_temporaries(place.path)
        swap = expected if place.existing is not None else None
        return _replace(place, payload, mode, guard, swap)


class ChangedMeanwhile(OSError):
    """The file changed after it was read and before it was replaced; the newer text was put
    back and nothing was written."""


def _replace(
    place: _Place,
    payload: bytes,
    mode: int | None,
    guard: Callable[[], None] | None,
    expected: bytes | None,
) -> bool:
    folder = place.folder_fd
    temporary = f".{place.name}.{_random_word()}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC
    fd = os.open(temporary, flags, 0o600, dir_fd=folder)
    try:
        _hold(fd)
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
            if mode is None:
                umask = os.umask(0)
                os.umask(umask)
                mode = 0o666 & ~umask
            os.fchmod(handle.fileno(), mode)
            if guard is not None:
                guard()
            swapped = expected is not None and exchange(temporary, place.name, dir_fd=folder)
            if swapped:
                _keep_a_newer_save(folder, temporary, place.name, payload, expected)
                os.unlink(temporary, dir_fd=folder)
            else:
                os.replace(temporary, place.name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=folder)
        raise
    with contextlib.suppress(OSError):
        os.fsync(folder)
    return swapped


def _keep_a_newer_save(
    folder: int, temporary: str, name: str, payload: bytes, expected: bytes | None
) -> None:
    """After the swap ``temporary`` holds what was displaced: unless it is what the caller read,
    swap it back (and again if yet another save replaced ours meanwhile, so the newest stays)."""
    if _read_at(folder, temporary) == expected:
        return
    exchange(temporary, name, dir_fd=folder)
    if _read_at(folder, temporary) != payload:
        exchange(temporary, name, dir_fd=folder)
    raise ChangedMeanwhile(f"{name} changed while it was being replaced; the newer text was kept")


def _read_at(folder: int, name: str) -> bytes:
    fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _CLOEXEC, dir_fd=folder)
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


def open_append(path: Path, *, root: Path) -> int:
    """A descriptor open for reading and appending (``O_APPEND``) on the regular file ``path``
    inside ``root``, made when missing (mode 0644): the audit trail's lines. The caller closes
    it."""
    with _place(path, root) as place:
        flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | _NOFOLLOW | _NONBLOCK | _CLOEXEC
        fd = os.open(place.name, flags, 0o644, dir_fd=place.folder_fd)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UnsafeFile("it is not a regular file; nothing was written")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def folder_name(folder: Path) -> str:
    """A folder's name for a message, cut short when it is too long to read."""
    text = str(folder)
    return text if len(text) <= 80 else f"{text[:60]}...({len(text):,} characters)"


def make_folder(folder: Path, *, root: Path | None = None) -> None:
    """Create ``folder`` and its parents below ``root`` (each checked as a write is); a file where
    a folder must be is an :class:`UnsafeFile` that names it (not a ``FileExistsError``).

    Without ``root`` (a folder named outside any project: ``JOBLEDGER_CACHE_DIR``), the folders
    are made as named and the last one must not be a symlink.
    """
    long = too_long(folder)
    if long is not None:
        raise UnsafeFile(f"{folder_name(folder)}: {long}; nothing was written")
    if root is not None:
        base, names = _start(folder, root, False)
        if any(is_git_name(name) for name in names):
            raise UnsafeFile(f"{folder} is inside a .git folder; nothing was written")
        with _open_folder(base, names, create=True):
            return
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError) as exc:
        blocker = next(
            (part for part in (folder, *folder.parents) if part.exists() and not part.is_dir()),
            folder,
        )
        raise UnsafeFile(f"{blocker} is a file, not a folder; nothing was written") from exc
    if folder.is_symlink():
        raise UnsafeFile(f"{folder} is a symlink; nothing was written")


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


def _random_word() -> str:
    """What :func:`tempfile.mkstemp` puts between prefix and suffix (so the cleanup knows it)."""
    return "".join(secrets.choice("abcdefghijklmnopqrstuvwxyz0123456789_") for _ in range(8))


def exchange(first: Path | str, second: Path | str, *, dir_fd: int | None = None) -> bool:
    """Swap two files of one folder atomically (Linux ``renameat2`` with ``RENAME_EXCHANGE``, an
    OS call through libc; names relative to ``dir_fd`` when given): afterwards ``second`` holds
    what ``first`` held and ``first`` exactly what was displaced, so a writer can see whether
    someone saved meanwhile and put it back.
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
    folder = at_fdcwd if dir_fd is None else dir_fd
    if renameat2(folder, os.fsencode(first), folder, os.fsencode(second), rename_exchange):
        code = ctypes.get_errno()
        if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
            return False  # no such call, or a file system that cannot exchange
        raise OSError(code, os.strerror(code), str(first), None, str(second))
    return True
