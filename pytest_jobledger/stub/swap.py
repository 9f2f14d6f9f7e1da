"""Write the stubbed overlay only over the text the stub read: an editor's save is never lost.

Editors take no lock, so a save can land between the stub's read and its rename. The one writer
(:func:`~pytest_jobledger.core.atomic.atomic_write`) re-reads the overlay right before it replaces
it
(``guard``), and where the platform can swap two files atomically (Linux ``renameat2`` with
``RENAME_EXCHANGE``) it swaps the new text in and compares what came out: a save that landed
after the re-read is put back, and the stub refuses. Elsewhere a save landing between that re-read
and the rename is overwritten, which the README says.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..core.atomic import ChangedMeanwhile, atomic_write
from ..core.errors import OverlayError

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
    ``before_swap`` runs right before the re-read and the swap, and is only for tests, which
    save there to prove nothing is lost. Raises a located :class:`OverlayError` when the file
    changed; ``OSError`` when it cannot be written.
    """

    def unchanged() -> None:
        if before_swap is not None:
            before_swap()
        if reread() != expected:
            raise OverlayError(CHANGED, path=label)

    try:
        return atomic_write(path, data, root=root, guard=unchanged, expected=expected)
    except ChangedMeanwhile:
        raise OverlayError(CHANGED, path=label) from None
