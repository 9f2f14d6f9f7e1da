"""The join: ledger + overlay + configuration -> the joined jobs and one check per gate item.

Pure and deterministic: no I/O, the same inputs give the same checks in the same order, so every
pytest-xdist worker collects the same items and ``jobledger check`` prints what pytest reports.
Each job is joined with its entry once (:class:`~pytest_jobledger.findings.JoinedJob`); the checks,
every presenter and the runbook read those rows.

Item names (``<overlay>::<job>::<cell>`` once the plugin prefixes the overlay path):

- ``<job id>::<required cell>`` one per job of the ledger and required cell;
- ``<job id>::<key>`` for an overlay key that is not a required cell (lane mixing, unknown key);
- ``<job id>::rerun`` for a job its framework runs again that is signed not idempotent
  (:mod:`.promises`);
- ``<job id>::duplicate-id`` once per id registered more than once;
- ``<overlay id>::orphan`` for an overlay entry whose id is not in the ledger;
- ``<path>:<line>::unsupported`` for a registration the parser could not follow.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from functools import partial

from ..core.text import Suggester
from ..findings import Check, Finding, GateResult, JoinedJob, Kind, Level
from ..ledger.model import Job, Ledger, Unsupported
from ..overlay.model import Overlay
from ..overlay.roster import Roster
from ..project import Config
from .cells import CellRules
from .promises import declared_queues, rerun_check

DUPLICATE_CELL = "duplicate-id"
UNSUPPORTED_CELL = "unsupported"


def join(
    ledger: Ledger,
    overlay: Overlay | None,
    config: Config,
    *,
    unreadable_line: int = 1,
    today: datetime.date | None = None,
    roster: Roster | None = None,
    extra: Sequence[Check] = (),
) -> GateResult:
    """Every job joined with its entry, and every check in gate order.

    ``overlay`` is None when it could not be read: then each cell check is skipped, located at
    ``unreadable_line`` of the overlay (where its error is). ``today`` dates reviews (the
    machine's date when not pinned); ``roster`` lists the known owners; ``extra`` are checks of a
    job found outside the join (review after change), kept with its cells.
    """
    queues = declared_queues(ledger, config.cells.broker_queues)
    rules = CellRules(config, overlay, unreadable_line, today=today, roster=roster, queues=queues)
    jobs = ledger.by_id()
    entries = overlay.by_id() if overlay is not None else {}
    joined: list[JoinedJob] = []
    others: list[Check] = []
    by_job: dict[str, list[Check]] = {}
    for check in extra:
        by_job.setdefault(check.job, []).append(check)
    for job_id, job in jobs.items():
        entry = entries.get(job_id)
        own = [rules.cell_check(job, entry, cell) for cell in rules.required]
        if entry is not None:
            own.extend(rules.extra_key_checks(job, entry))
            rerun = rerun_check(job, entry, rules.path, partial(rules.signed, job))
            if rerun is not None:
                own.append(rerun)
        own.extend(by_job.get(job_id, ()))
        joined.append(JoinedJob(job, entry, tuple(sorted(own, key=rules.sort_key))))
    for job_id, rows in ledger.duplicate_ids().items():
        others.append(_duplicate_check(job_id, rows))
    known = Suggester(jobs)
    for entry in entries.values():
        if entry.job not in jobs:
            others.append(rules.orphan_check(entry, known))
    others.extend(_unsupported_checks(ledger.unsupported))
    every = [check for row in joined for check in row.checks] + others
    return GateResult(tuple(sorted(every, key=rules.sort_key)), tuple(joined))


def findings(ledger: Ledger, overlay: Overlay | None, config: Config) -> list[Finding]:
    """Every failing cell of the ledger joined with the overlay, in the checks' order."""
    return join(ledger, overlay, config).findings


def _duplicate_check(job_id: str, rows: Sequence[Job]) -> Check:
    places = ", ".join(row.location for row in rows)
    later = rows[1]
    finding = Finding(
        kind=Kind.DUPLICATE_ID,
        job=job_id,
        cell=DUPLICATE_CELL,
        path=later.path,
        line=later.line,
        message=(
            f"The job id {job_id} is registered {len(rows)} times ({places}); one overlay entry "
            "cannot sign for two jobs. Rename one of the functions, or give each a distinct "
            "registered name."
        ),
    )
    return Check.failed(finding)


def _accepted(item: Unsupported, name: str, message: str) -> Finding:
    """A place a ``# jobledger: ignore`` comment accepts on purpose: a notice with its reason."""
    first, _, _ = message.partition("\n")
    return Finding(
        kind=Kind.UNSUPPORTED,
        job=name,
        cell=UNSUPPORTED_CELL,
        path=item.path,
        line=item.line,
        message=(
            f"At {item.location}: accepted in the source ({item.accepted}): {first} "
            f"({item.pattern.value})"
        ),
        level=Level.NOTICE,
    )


def _unsupported_checks(items: Sequence[Unsupported]) -> list[Check]:
    result: list[Check] = []
    used: set[str] = set()
    for item in items:
        name = item.location
        suffix = 2
        while name in used:
            name = f"{item.location}-{suffix}"
            suffix += 1
        used.add(name)
        message = item.message.rstrip()
        if not message.endswith("."):
            message += "."
        if item.accepted is not None:
            result.append(Check.failed(_accepted(item, name, message)))
            continue
        first, _, fix = message.partition("\n")
        finding = Finding(
            kind=Kind.UNSUPPORTED,
            job=name,
            cell=UNSUPPORTED_CELL,
            path=item.path,
            line=item.line,
            message=(
                f"At {item.location}: {first} ({item.pattern.value}) "
                + (
                    fix
                    if fix
                    else "The gate cannot prove what is registered here, so it fails until the "
                    "registration is a module-level decorator or call the parser can follow, or "
                    "the file is excluded on purpose in [tool.jobledger] exclude."
                )
            ),
        )
        result.append(Check.failed(finding))
    return result
