"""The root boundary: what the tool reads and writes stays inside the project root.

The scanned tree may be a hostile pull request. A configured path (``ledger``, ``overlay``,
``paths``) or a committed symlink that resolves outside the root is refused, never followed; a
file that is not a regular file (a FIFO, a device, a folder) is refused before it is read, so it
can neither hang a run nor feed it without end. Every read of a repository file goes through
here; every write goes through :mod:`pytest_jobledger.core.atomic`, which builds on these rules (and
:func:`is_git_name`, shared with the configuration's path checks).
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

#: Opening a FIFO for reading waits for a writer; non-blocking, it returns at once (and is refused).
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_CHUNK = 1024 * 1024


#: Characters HFS+ ignores in a name (git refuses ``.git`` spelled with them, and so do we).
_IGNORABLE = re.compile("[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]")


def is_git_name(name: str) -> bool:
    """Whether a file system may take ``name`` for ``.git``: any case, trailing dots or spaces
    (Windows drops them), characters HFS+ ignores."""
    return _IGNORABLE.sub("", name).rstrip(" .").casefold() == ".git"


class UnsafeFile(OSError):
    """A file the tool will not read or write; ``strerror`` says why, in words for a message."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.strerror = reason


class FileTooLarge(UnsafeFile):
    """A regular file over the size a caller accepts (``size`` is how large it is)."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"it is too large ({size:,} bytes, over the {limit:,}-byte limit)")
        self.size = size
        self.limit = limit


def too_long(path: os.PathLike[str] | str) -> str | None:
    """Why this system cannot name ``path`` (a sentence for a message), or ``None``: a name over
    the file system's limit, or a whole path over the system's. Asked before anything is read or
    created, so a path too long is a located refusal, never a traceback after a thousand folders.
    """
    absolute = os.fsencode(os.path.abspath(path))
    name_max, path_max = 255, 4096
    with contextlib.suppress(OSError, ValueError, AttributeError):
        name_max = os.pathconf("/", "PC_NAME_MAX")
        path_max = os.pathconf("/", "PC_PATH_MAX")
    longest = max((len(part) for part in absolute.split(b"/")), default=0)
    if longest > name_max:
        return (
            f"a name in it is {longest:,} bytes long, over this system's limit of {name_max:,}; "
            "choose a shorter path"
        )
    if len(absolute) >= path_max:
        return (
            f"it is {len(absolute):,} bytes long, over this system's limit of {path_max:,}; "
            "choose a shorter path"
        )
    return None


def real(path: os.PathLike[str] | str) -> Path:
    """``path`` with every symlink followed (a missing tail is kept as written)."""
    return Path(os.path.realpath(path))


def is_inside(path: os.PathLike[str] | str, root: os.PathLike[str] | str) -> bool:
    """Whether ``path``, symlinks followed, is ``root`` or below it."""
    target, base = real(path), real(root)
    return target == base or base in target.parents


def outside_reason(path: os.PathLike[str] | str, root: os.PathLike[str] | str) -> str | None:
    """Why ``path`` leaves ``root`` (a sentence for a message), or ``None`` when it stays inside."""
    if is_inside(path, root):
        return None
    return f"it resolves to {real(path)}, outside the project root {real(root)}"


def read_regular(path: Path, *, root: Path | None = None, limit: int | None = None) -> bytes:
    """The bytes of the regular file ``path``: never a FIFO, device or folder, never more than
    ``limit`` bytes, and (with ``root``) never a file that a symlink takes outside the root.

    Raises :class:`UnsafeFile` (or :class:`FileTooLarge`) with a reason, or the ``OSError`` of a
    missing or unreadable file.
    """
    return read_regular_stat(path, root=root, limit=limit)[0]


def read_regular_stat(
    path: Path, *, root: Path | None = None, limit: int | None = None
) -> tuple[bytes, os.stat_result]:
    """:func:`read_regular`, with the file's status as it was before its bytes were read (so a
    change made while it is read shows as a later change)."""
    long = too_long(path)
    if long is not None:
        raise UnsafeFile(f"{long}; it was not read")
    if root is not None:
        reason = outside_reason(path, root)
        if reason is not None:
            raise UnsafeFile(f"{reason}; it was not read")
    fd = os.open(path, _OPEN_FLAGS)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFile(f"it is {_kind(info.st_mode)}, not a regular file; it was not read")
        if limit is not None and info.st_size > limit:
            raise FileTooLarge(info.st_size, limit)
        return _read_all(fd, limit), info
    finally:
        os.close(fd)


def _read_all(fd: int, limit: int | None) -> bytes:
    """Read to the end, refusing a file that grows past ``limit`` while it is read."""
    if hasattr(os, "set_blocking"):
        os.set_blocking(fd, True)
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = os.read(fd, _CHUNK)
        if not chunk:
            return b"".join(chunks)
        total += len(chunk)
        if limit is not None and total > limit:
            raise FileTooLarge(total, limit)
        chunks.append(chunk)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


#: ``path:line`` as findings and facts name a place (no spaces: a sentence is not a place).
_LOCATION = re.compile(r"^(?P<path>[^\s:][^\s]*?):(?P<line>\d+)$")


@dataclass(frozen=True)
class Shown:
    """How human output names a file: relative to the folder the command runs in, so an
    editor's or a terminal's jump to ``path:line`` works under ``--root`` and from a subfolder
    (``../proj/overlays/job_policy.yaml:6`` when that folder is outside the root).

    Findings and ledger rows keep root-relative paths; only a presenter converts, at display
    time. Machine formats keep their own convention (JSON, SARIF and GitHub annotations stay
    relative to the root). ``cwd`` is ``None`` when the current folder cannot be known (it was
    removed): paths are then shown as recorded.
    """

    root: Path
    cwd: Path | None

    @classmethod
    def here(cls, root: Path) -> Shown:
        """Paths as seen from the current folder (symlinks followed, as the root's are)."""
        try:
            cwd: Path | None = Path.cwd().resolve()
        except OSError:  # the current folder was removed
            cwd = None
        return cls(root, cwd)

    def path(self, recorded: str) -> str:
        """A root-relative (or absolute) path as a person types it from the current folder."""
        if self.cwd is None or self.cwd == self.root:
            return recorded
        try:
            return os.path.relpath(os.path.join(self.root, recorded), self.cwd).replace(os.sep, "/")
        except ValueError:  # another drive (Windows): no relative path exists
            return os.path.join(self.root, recorded)

    def location(self, recorded: str) -> str:
        """``path:line`` with its path shown from the current folder; any other text as is."""
        found = _LOCATION.match(recorded)
        if found is None:
            return recorded
        return f"{self.path(found.group('path'))}:{found.group('line')}"
