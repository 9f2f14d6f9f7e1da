"""Write the stubbed overlay only over the text the stub read: an editor's save is never lost.

Editors take no lock, so a save can land between the stub's read and its rename. Where the
platform can swap two files atomically (Linux ``renameat2`` with ``RENAME_EXCHANGE``,
:func:`~pytest_jobledger.atomic.exchange`), the new text is swapped in and what it displaced comes
back, byte for byte: if that is not what the stub read, it is swapped back (a later save that
landed meanwhile, too) and the stub refuses, so no save is ever overwritten. Elsewhere (and when
the overlay is created) the text is re-read right before :func:`os.replace`; a save landing
between that re-read and the rename is then overwritten, which the README says.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from ..atomic import atomic_write, exchange, remove_stale_temporaries
from ..errors import OverlayError
from ..paths import UnsafeFile, outside_reason

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

CHANGED = (
    "the overlay changed while the stub was running (an editor saved it?); the saved text was "
    "kept and nothing was written: run the stub again"
)


def write_unless_changed(
    path: Path,
    data: bytes,
    expected: bytes | None,
    *,
    root: Path,
    label: str,
    reread: Callable[[], bytes | None],
    before_swap: Callable[[], None] | None = None,
) -> bool:
    """Replace ``path`` with ``data`` only if it still holds ``expected`` (``None``: no file).

    Returns whether the exchange guaranteed it (``False``: the re-read-then-rename fallback ran).
    ``reread`` reads the file now (the fallback's guard); ``before_swap`` runs right before the
    swap, and is only for tests, which save there to prove nothing is lost. Raises a located
    :class:`OverlayError` when the file changed; ``OSError`` when it cannot be written.
    """
    target = _writable_target(path, root) if expected is not None else None
    if target is not None:
        swapped = _swap_in(target, data, expected or b"", label, before_swap)
        if swapped:
            return True

    def unchanged() -> None:
        """Called with the new text written to its temporary file, right before the rename."""
        if before_swap is not None:
            before_swap()
        if reread() != expected:
            raise OverlayError(CHANGED, path=label)

    atomic_write(path, data, root=root, guard=unchanged)
    return False


def _writable_target(path: Path, root: Path) -> Path | None:
    """The regular, writable file to swap with (symlinks followed, never out of ``root``), or
    ``None``: then :func:`~pytest_jobledger.atomic.atomic_write` runs and gives its own refusal."""
    reason = outside_reason(path, root)
    if reason is not None:
        raise UnsafeFile(f"{reason}; nothing was written")
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        info = target.stat()
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode) or not info.st_mode & stat.S_IWUSR:
        return None
    return target


def _swap_in(
    target: Path, data: bytes, expected: bytes, label: str, before_swap: Callable[[], None] | None
) -> bool:
    """Swap ``data`` in for ``target``; ``False`` when the platform cannot exchange files."""
    mode = stat.S_IMODE(target.stat().st_mode)
    remove_stale_temporaries(target)
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    spare = Path(name)
    try:
        if fcntl is not None:  # a live writer's file: atomic.remove_stale_temporaries leaves it
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
            os.chmod(spare, mode)
            if before_swap is not None:
                before_swap()
            if not exchange(spare, target):
                return False
            displaced = spare.read_bytes()
            if displaced != expected:
                _put_back(spare, target, data)
                raise OverlayError(CHANGED, path=label)
        _fsync_folder(target.parent)
        return True
    finally:
        with contextlib.suppress(OSError):
            spare.unlink()


def _put_back(spare: Path, target: Path, data: bytes) -> None:
    """Swap the displaced save back. If yet another save replaced the stub's text in between,
    what comes out is that newer save: it goes back too, so the newest save is what stays."""
    exchange(spare, target)
    if spare.read_bytes() != data:
        exchange(spare, target)


def _fsync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
