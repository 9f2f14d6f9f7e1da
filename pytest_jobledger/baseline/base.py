"""The base's baseline rules: a pull request cannot vouch for its own failures.

With a base (``check --base``, ``pytest --jobledger-base``, the Action) the baseline file is also
read as it was committed at the base (the session reads it with git, never a checkout). An
entry of the head's baseline that the base's baseline holds (same job, cell and kind) is applied
as usual; any other entry is **grown**: it turns no failure into a notice, and it fails as its
own ``baseline-grown`` item at its line. So a baseline can only shrink in a pull request.

Fail closed: when there is no baseline file at the base, the base holds nothing (every head entry
is grown: a repository adopting the tool lands its first baseline where the gate's owners merge
it knowingly). When the base cannot be read at all (no git, unknown ref, a shallow clone, a base
file that is not a baseline) no entry is vouched for either, and each grown item says why.

Pure: :func:`pytest_jobledger.session.read_base` reads the base's file; here it is judged.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.readers import Unreadable, decode_utf8
from ..findings import Check, Finding, Kind
from .model import Baseline, Entry
from .store import BaselineError, parse_baseline


@dataclass(frozen=True)
class BaseBaseline:
    """What the base's baseline vouches for: its entries (none when it has no file or cannot be
    read), and the reason an entry missing from them gives. Read by the session, with git."""

    entries: frozenset[Entry]
    why: str


def base_entries(raw: bytes | None, ref: str, display: str) -> BaseBaseline:
    """The base's baseline file (``raw``; ``None``: it had none) as the entries it holds."""
    if raw is None:
        return BaseBaseline(
            frozenset(), f"the base {ref} has no baseline file {display}, so it holds no entry"
        )
    try:
        text = decode_utf8(raw)
    except Unreadable:
        return BaseBaseline(
            frozenset(), f"{display} at {ref} is not UTF-8 text, so it vouches for no entry"
        )
    try:
        base = parse_baseline(text, f"{display} at {ref}")
    except BaselineError as exc:
        return BaseBaseline(frozenset(), f"{exc} (so it vouches for no entry)")
    return BaseBaseline(frozenset(base.entries), f"the baseline at {ref} does not list it")


def unreadable_base(ref: str, reason: str) -> BaseBaseline:
    """No base could be read at all (no git, unknown ref, a shallow clone): nothing is held."""
    return BaseBaseline(
        frozenset(), f"the base {ref} cannot be read ({reason}), so no entry is vouched for by it"
    )


def held_by_base(
    display: str, ref: str | None, head: Baseline | None, base: BaseBaseline | None
) -> tuple[Baseline | None, tuple[Check, ...]]:
    """``head`` reduced to the entries the base's baseline holds, and one failing
    ``baseline-grown`` item per other entry. Without a base (or a head baseline) nothing
    changes."""
    if ref is None or base is None or head is None or not head.entries:
        return head, ()
    held, why = base.entries, base.why
    kept: list[tuple[Entry, int]] = []
    grown: list[Check] = []
    for entry, line in zip(head.entries, head.lines, strict=False):
        if entry in held:
            kept.append((entry, line))
        else:
            grown.append(Check.failed(_grown(entry, line, display, ref, why)))
    if not grown:
        return head, ()
    reduced = Baseline(
        tuple(entry for entry, _ in kept), tuple(line for _, line in kept), head.text
    )
    return reduced, tuple(grown)


def _grown(entry: Entry, line: int, display: str, ref: str, why: str) -> Finding:
    return Finding(
        kind=Kind.BASELINE_GROWN,
        job=entry.job,
        cell=f"baseline-grown[{entry.cell}]",
        path=display,
        line=line,
        message=(
            f"The baseline {display} lists {entry.name} as a known failure ({entry.kind.value}), "
            f"but {why}. A pull request cannot accept its own failures: the entry turns nothing "
            "into a notice. Fix the failure, or take the entry out (restore the base's file "
            f"with `git checkout {ref} -- {display}`, then `jobledger baseline --shrink`); a "
            "baseline grows only on the default branch, by its owners."
        ),
    )
