"""The baseline applied to one gate run: known failures become notices, fixed ones fail.

For every entry ``(job, cell, kind)``:

- the item still fails as ``kind``: its finding becomes a :attr:`Level.NOTICE` marked
  ``baselined`` (an ``xfail`` item in pytest, a notice in annotations and SARIF);
- the item now passes, or is gone (the job left the ledger, the key left the overlay): the item
  fails as ``baseline-stale`` at the entry's line, so the file can only shrink;
- the item fails another way: that failure is new and stays an error; its message names the
  entry, which turns stale once the new failure is fixed.

Status items are never touched. While some cell could not be judged (the overlay does not
parse), no entry is called stale: a cell that was not judged is not a fixed one.
"""

from __future__ import annotations

import dataclasses

from ..findings import STATUS_JOB, Check, Finding, GateResult, Kind, Level
from .model import Baseline, Entry, baselineable


def apply_baseline(result: GateResult, baseline: Baseline | None, display: str) -> GateResult:
    """``result`` as the gate reports it with ``baseline`` (the file ``display``) applied."""
    if baseline is None or not baseline.entries:
        return result
    entries = {(entry.job, entry.cell): entry for entry in baseline.entries}
    lines = baseline.line_map()
    judged = not any(c.skipped is not None and c.job != STATUS_JOB for c in result.checks)
    seen: set[Entry] = set()
    changed: dict[tuple[str, str], Check] = {}
    for check in result.checks:
        entry = entries.get((check.job, check.cell))
        if entry is None or check.job == STATUS_JOB or check.skipped is not None:
            if entry is not None:
                seen.add(entry)
            continue
        seen.add(entry)
        finding = check.finding
        if finding is not None and baselineable(finding):
            if finding.kind is entry.kind:
                new = dataclasses.replace(check, finding=_known(finding, display))
            else:
                new = dataclasses.replace(check, finding=_moved(finding, entry, display))
        elif judged:
            new = Check.failed(_stale(entry, lines.get(entry, 1), display, "it passes now"))
        else:
            continue
        changed[(check.job, check.cell)] = new
    checks = [changed.get((check.job, check.cell), check) for check in result.checks]
    if judged:
        jobs = {row.job.id for row in result.jobs}
        for entry in baseline.entries:
            if entry not in seen:
                why = (
                    "no such item is checked any more"
                    if entry.job in jobs
                    else f"the job {entry.job} is no longer in the ledger"
                )
                checks.append(Check.failed(_stale(entry, lines.get(entry, 1), display, why)))
    rows = tuple(
        dataclasses.replace(
            row, checks=tuple(changed.get((check.job, check.cell), check) for check in row.checks)
        )
        for row in result.jobs
    )
    return dataclasses.replace(result, checks=tuple(checks), jobs=rows)


def _known(finding: Finding, display: str) -> Finding:
    return dataclasses.replace(
        finding,
        level=Level.NOTICE,
        baselined=True,
        message=(
            f"{finding.message} In the baseline {display}: a known failure, so it does not fail "
            "the gate; once it is fixed, run `jobledger baseline --shrink`."
        ),
    )


def _moved(finding: Finding, entry: Entry, display: str) -> Finding:
    return dataclasses.replace(
        finding,
        message=(
            f"{finding.message} (The baseline {display} lists this item as {entry.kind.value}; "
            "this failure is new, so it fails the gate.)"
        ),
    )


def _stale(entry: Entry, line: int, display: str, why: str) -> Finding:
    return Finding(
        kind=Kind.BASELINE_STALE,
        job=entry.job,
        cell=entry.cell,
        path=display,
        line=line,
        message=(
            f"The baseline {display} lists {entry.name} as a known failure ({entry.kind.value}), "
            f"but {why}. The baseline only shrinks: run `jobledger baseline --shrink` to drop the "
            "entry, and commit the file."
        ),
    )
