"""Pairing an orphaned overlay entry with the unsigned job it most likely became.

When a function is renamed or its module moves, its id changes: the gate then shows the old id as
an orphan and the new one as unsigned. The evidence that they are the same job comes from the
previous ledger (what the orphan's id used to be) and the fresh one:

- the same registered task name (``name=`` / ``actor_name=``), or
- the same function name and the same (non-empty) docstring.

A pair is only proposed when it is the one candidate both ways; everything else is reported as
ambiguous and left for a person, and so is an undocumented function that kept its name (a hint,
never a move). A signed promise moved to the wrong job would make the gate pass
on a promise nobody made, so an undocumented function with a common name is not enough evidence.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .model import Job


@dataclass(frozen=True)
class Pair:
    """An orphan id whose signed entry belongs to ``new`` now, and why we think so."""

    old: str
    new: str
    reason: str


@dataclass(frozen=True)
class Ambiguity:
    """An id with more than one candidate on the other side; a person decides."""

    id: str
    candidates: tuple[str, ...]
    side: str
    """``orphan``: the candidates are new ids; ``unsigned``: they are orphans; ``weak``: one new
    id with the same function name but no docstring to confirm it."""


def evidence(old: Job, new: Job) -> str | None:
    """Why ``old`` (previous ledger) and ``new`` (fresh ledger) are the same job, if they are."""
    if old.name is not None and old.name == new.name:
        return f"same registered name {old.name!r}"
    documented = old.docstring is not None and old.docstring.strip() != ""
    if documented and old.function == new.function and old.docstring == new.docstring:
        return f"same function name {old.function!r} and docstring"
    return None


def pair(
    orphans: Iterable[str],
    unsigned: Iterable[Job],
    previous: Mapping[str, Job],
) -> tuple[tuple[Pair, ...], tuple[Ambiguity, ...]]:
    """The unambiguous pairs and the ambiguous cases, both sorted by id.

    ``orphans`` are overlay ids missing from the fresh ledger, ``unsigned`` the fresh jobs without
    a signed entry, ``previous`` the committed ledger's jobs by id (an orphan that is not in it has
    no evidence and is never paired).
    """
    candidates: dict[str, dict[str, str]] = {}
    reverse: dict[str, list[str]] = {}
    fresh = sorted(unsigned, key=lambda job: job.id)
    for orphan in sorted(set(orphans)):
        old = previous.get(orphan)
        if old is None:
            continue
        for job in fresh:
            reason = evidence(old, job)
            if reason is not None:
                candidates.setdefault(orphan, {})[job.id] = reason
                reverse.setdefault(job.id, []).append(orphan)
    pairs: list[Pair] = []
    ambiguous: list[Ambiguity] = []
    for orphan, found in candidates.items():
        if len(found) > 1:
            ambiguous.append(Ambiguity(orphan, tuple(sorted(found)), "orphan"))
            continue
        ((new, reason),) = found.items()
        if len(reverse[new]) == 1:
            pairs.append(Pair(orphan, new, reason))
    for new, olds in sorted(reverse.items()):
        if len(olds) > 1:
            ambiguous.append(Ambiguity(new, tuple(sorted(olds)), "unsigned"))
    for orphan in sorted(set(orphans) - set(candidates)):
        old = previous.get(orphan)
        if old is not None:
            same_name = [job.id for job in fresh if job.function == old.function]
            if same_name and not (old.docstring or "").strip():
                ambiguous.append(Ambiguity(orphan, tuple(same_name), "weak"))
    return tuple(pairs), tuple(sorted(ambiguous, key=lambda a: (a.id, a.side)))
