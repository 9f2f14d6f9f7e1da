"""The base's baseline rules: a pull request cannot vouch for its own failures.

With a base (``check --base``, ``pytest --jobledger-base``, the Action) the baseline file is also
read as it was committed at the base, through :mod:`pytest_jobledger.git` (never a checkout). An
entry of the head's baseline that the base's baseline holds (same job, cell and kind) is applied
as usual; any other entry is **grown**: it turns no failure into a notice, and it fails as its
own ``baseline-grown`` item at its line. So a baseline can only shrink in a pull request.

Fail closed: when there is no baseline file at the base, the base holds nothing (every head entry
is grown: a repository adopting the tool lands its first baseline where the gate's owners merge
it knowingly). When the base cannot be read at all (no git, unknown ref, a shallow clone, a base
file that is not a baseline) no entry is vouched for either, and each grown item says why.

This module is the one place the baseline calls git (``resolve_commit`` and ``show``).
"""

from __future__ import annotations

from .. import git
from ..config import Config
from ..findings import Check, Finding, Kind
from .model import Baseline, Entry
from .store import MAX_BASELINE_BYTES, BaselineError, parse_baseline


def held_by_base(
    config: Config, ref: str | None, head: Baseline | None
) -> tuple[Baseline | None, tuple[Check, ...]]:
    """``head`` reduced to the entries the base's baseline holds, and one failing
    ``baseline-grown`` item per other entry. Without a base (or a head baseline) nothing
    changes."""
    if ref is None or head is None or not head.entries:
        return head, ()
    display = config.display(config.baseline_path)
    held, why = _base_entries(config, ref, display)
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


def _base_entries(config: Config, ref: str, display: str) -> tuple[frozenset[Entry], str]:
    """The entries the base's baseline holds, and the reason an entry missing from them gives."""
    try:
        commit = git.resolve_commit(ref, config.root)
        raw = git.show(commit, config.baseline_path, config.root, limit=MAX_BASELINE_BYTES)
    except git.NotAtCommit:
        return frozenset(), f"the base {ref} has no baseline file {display}, so it holds no entry"
    except git.GitUnavailable as exc:
        return frozenset(), (
            f"the base {ref} cannot be read ({exc.reason}), so no entry is vouched for by it"
        )
    try:
        base = parse_baseline(raw.decode("utf-8"), f"{display} at {ref}")
    except UnicodeDecodeError:
        return frozenset(), f"{display} at {ref} is not UTF-8 text, so it vouches for no entry"
    except BaselineError as exc:
        return frozenset(), f"{exc} (so it vouches for no entry)"
    return frozenset(base.entries), f"the baseline at {ref} does not list it"


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
