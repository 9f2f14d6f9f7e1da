"""``jobledger stub --rename OLD NEW``: move one signed entry by hand.

The evidence ``--renames`` needs (the same registered name, or function name and docstring) is
sometimes missing, and then a person who knows says which entry is which. The move itself is the
one ``--renames`` makes (the entry's comments and bytes kept, only its key changed); this module
holds the refusals, each naming what to do instead, so a typo never moves the wrong promise.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from ..core.errors import OverlayError
from ..core.text import did_you_mean, one_line
from ..ledger.model import Job
from ..ledger.renames import Pair
from .layout import EntrySpan

REASON = "by hand"


def by_hand(
    rename: tuple[str, str],
    entries: Mapping[str, EntrySpan],
    fresh: Mapping[str, Job],
    signed: Callable[[str], bool],
    path: str,
) -> Pair:
    """The move ``OLD -> NEW``, or an :class:`OverlayError` (exit 2) that says why not."""
    old, new = rename
    shown_old, shown_new = one_line(repr(old)), one_line(repr(new))
    if old == new:
        raise OverlayError(f"--rename {shown_old} {shown_new}: the two ids are the same", path=path)
    if old not in entries:
        orphans = [entry for entry in entries if entry not in fresh]
        raise OverlayError(
            f"--rename: {shown_old} is not an entry of the overlay{_maybe(old, orphans)}; give "
            "the id as it is written under `jobs:` (`jobledger check` lists orphaned entries); "
            "nothing was written",
            path=path,
        )
    if old in fresh:
        raise OverlayError(
            f"--rename: {shown_old} is still a job in the ledger (registered at "
            f"{fresh[old].location}), so its entry is not orphaned; moving it would leave that "
            "job unsigned. Run `jobledger extract` if the code changed; nothing was written",
            path=path,
            line=entries[old].key_line + 1,
        )
    if new not in fresh:
        raise OverlayError(
            f"--rename: {shown_new} is not a job in the ledger{_maybe(new, fresh)}; give a job "
            "id as `jobledger list` prints it (run `jobledger extract` first if the code "
            "changed); nothing was written",
            path=path,
        )
    if signed(new):
        raise OverlayError(
            f"--rename: {shown_new} already has a signed entry; merge the two entries by hand, "
            "or delete one, then run the stub again; nothing was written",
            path=path,
            line=entries[new].key_line + 1,
        )
    return Pair(old=old, new=new, reason=REASON)


def _maybe(word: str, options: Iterable[str]) -> str:
    close = did_you_mean(word, options)
    return f" (did you mean {one_line(repr(close))}?)" if close else ""
