"""One row per enqueued RQ function (:mod:`.enqueue` gives one per site), made once every file
is scanned: plain rows in, plain rows out, so a run the cache answers needs no parser.

A field is kept where every site that enqueues the function agrees; where two disagree it is
``null`` with both values in its reason, and the disagreeing site is a located
``conflicting-enqueue`` entry. A function also registered by a decorator keeps that row only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..ledger.model import RESOLVED_FIELDS, Job, Pattern, Unsupported
from .frameworks.enqueue import METHODS

#: The last part of an enqueued row's ``decorator``: how an enqueued row is known.
_METHOD_NAMES = frozenset(key.rsplit(".", 1)[-1] for key in METHODS)


def is_enqueued(job: Job) -> bool:
    return job.framework == "rq" and job.decorator.rsplit(".", 1)[-1] in _METHOD_NAMES


def merge_enqueued(jobs: Sequence[Job]) -> tuple[list[Job], list[Unsupported]]:
    """One row per enqueued function: its first site's, with each field kept where every site
    agrees. A function also registered by a decorator keeps only that row."""
    decorated = {job.id for job in jobs if not is_enqueued(job)}
    kept = [job for job in jobs if not is_enqueued(job)]
    groups: dict[str, list[Job]] = {}
    for job in jobs:
        if is_enqueued(job) and job.id not in decorated:
            groups.setdefault(job.id, []).append(job)
    problems: list[Unsupported] = []
    for rows in groups.values():
        rows.sort(key=lambda row: (row.path, row.line))
        first = rows[0]
        changes: dict[str, object] = {}
        unresolved = dict(first.unresolved)
        for name in RESOLVED_FIELDS:
            seen = {(repr(getattr(row, name)), row.unresolved.get(name)) for row in rows}
            if len(seen) == 1:
                continue
            said = "; ".join(f"{row.location}: {_said(row, name)}" for row in rows)
            changes[name] = None
            unresolved[name] = f"the sites that enqueue it disagree ({said})"
            other = next(row for row in rows if _said(row, name) != _said(first, name))
            problems.append(
                Unsupported(
                    other.path,
                    other.line,
                    Pattern.CONFLICTING_ENQUEUE,
                    f"{first.id} is enqueued with {name} {_said(other, name)} here but "
                    f"{_said(first, name)} at {first.location}\nOne job has one {name}: make "
                    "the sites agree (or give them one shared queue or constant); or accept it "
                    "here with '# jobledger: ignore[conflicting-enqueue] -- why'",
                )
            )
        options = {
            key: value
            for key, value in first.options.items()
            if all(row.options.get(key, _MISSING) == value for row in rows)
        }
        unresolved = dict(sorted(unresolved.items()))
        kept.append(replace(first, **changes, options=options, unresolved=unresolved))  # type: ignore[arg-type]
    return kept, problems


_MISSING = object()


def _said(row: Job, name: str) -> str:
    value = getattr(row, name)
    if value is not None:
        return repr(value)
    return f"unknown ({row.unresolved.get(name, 'not set')})"
