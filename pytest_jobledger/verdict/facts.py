"""What the rules may read about one job: the gate's joined row turned into labelled facts.

Pure. A cell is ``signed`` only when the gate's own check of it passes, so a value the gate fails
(an unquoted yes, a quoted number, ``unknown``) is never read as an answer; it is ``missing``,
with where it is and why. A ledger field the source does not prove is ``missing`` with the
ledger's own reason. Nothing else about the job is read: its docstring and the text of its cells
are data shown to a person, never instructions to the rules. A cell or docstring whose text reads
as an instruction (:mod:`.directives`) is a *suspect*: the cell is not signed evidence, and the
verdict asks a person to read it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ..core.redact import redact
from ..findings import Check, Finding, JoinedJob, Kind
from ..gate.committed import COMMITTED, Snapshot
from ..ledger.model import RESOLVED_FIELDS, Job, JSONValue
from ..overlay.cells import CELLS, REVIEWED_ON
from ..overlay.values import describe_value
from .directives import Suspect, scan
from .model import Evidence, Fact
from .quality import Reading, cell_quality, ledger_file_quality, ledger_quality


@dataclass(frozen=True)
class JobFacts:
    """One job as the rules see it.

    ``problems`` are the gate's failing checks of the job's entry; ``unreadable`` says why the
    overlay could not be read at all; ``stale`` how the committed ledger differs from the code;
    ``suspects`` every cell and docstring that reads as an instruction, in file order.
    """

    job: Job
    ledger: tuple[Fact, ...]
    cells: Mapping[str, Fact]
    problems: tuple[Finding, ...] = ()
    duplicate: Finding | None = None
    unreadable: str | None = None
    stale: str | None = None
    ledger_fact: Fact | None = None
    bulk_retry_limit: int = 100
    overlay_path: str = "overlays/job_policy.yaml"
    suspects: tuple[Suspect, ...] = ()

    @property
    def failing(self) -> tuple[Finding, ...]:
        """Every finding the gate has against this job (its cells, and a shared id)."""
        return (*self.problems, *((self.duplicate,) if self.duplicate is not None else ()))

    @property
    def gate_passes(self) -> bool:
        """The gate judges every cell of the job and fails none."""
        return not self.failing and self.unreadable is None

    def cell(self, name: str) -> Fact:
        return self.cells.get(name) or Fact(name, None, Evidence.MISSING, note="not a cell")

    def signed(self, name: str) -> JSONValue:
        """The signed value of a cell, or ``None`` when it is not signed (or not usable)."""
        fact = self.cell(name)
        return fact.value if fact.evidence is Evidence.SIGNED else None

    def field(self, name: str) -> Fact:
        for fact in self.ledger:
            if fact.name == name:
                return fact
        raise KeyError(name)


def collect(
    row: JoinedJob,
    *,
    overlay_path: str,
    required: Sequence[str],
    bulk_retry_limit: int,
    unreadable: str | None = None,
    stale: str | None = None,
    duplicate: Finding | None = None,
    ledger_fact: Fact | None = None,
    reading: Reading | None = None,
) -> JobFacts:
    """Label every ledger field and every cell (required or in the vocabulary) of ``row``, and
    grade each with what the session read (``reading``: digests and today; none: not recorded)."""
    reading = reading if reading is not None else Reading()
    names = list(dict.fromkeys([*required, *CELLS]))
    suspects = find_suspects(row, overlay_path)
    cells = {name: _cell_fact(row, name, overlay_path) for name in names}
    for suspect in suspects:
        fact = cells.get(suspect.subject)
        if fact is not None and fact.evidence is Evidence.SIGNED:
            cells[suspect.subject] = Fact(
                fact.name, fact.value, Evidence.SUSPECT, fact.where, suspect.note
            )
    reviewed = cells.get(REVIEWED_ON)
    cells = {
        name: replace(fact, quality=cell_quality(reading, fact, reviewed))
        for name, fact in cells.items()
    }
    problems = tuple(
        check.finding for check in row.checks if check.finding is not None and check.skipped is None
    )
    return JobFacts(
        job=row.job,
        ledger=ledger_facts(row.job, reading),
        cells=cells,
        problems=problems,
        duplicate=duplicate,
        unreadable=unreadable,
        stale=stale,
        ledger_fact=ledger_fact,
        bulk_retry_limit=bulk_retry_limit,
        overlay_path=overlay_path,
        suspects=suspects,
    )


def find_suspects(row: JoinedJob, overlay_path: str) -> tuple[Suspect, ...]:
    """Every text of the job's entry (any key, signed or failing) and its docstring that reads as
    an instruction: the docstring first (it is the code's), then the cells in file order."""
    found: list[Suspect] = []
    docstring = row.job.docstring
    if docstring is not None and (directive := scan(docstring)) is not None:
        found.append(Suspect("docstring", row.job.location, directive))
    if row.entry is not None:
        for cell in row.entry.cells:
            for text in _texts(cell.value):
                if (directive := scan(text)) is not None:
                    found.append(Suspect(cell.key, f"{overlay_path}:{cell.value_line}", directive))
                    break
    return tuple(found)


def _texts(value: object) -> list[str]:
    """Every string in a cell's value (a list or mapping the gate fails may still carry one),
    walked without recursion: a hostile overlay may nest deeply."""
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, (list, tuple)):
            stack.extend(reversed(item))
        elif isinstance(item, dict):
            stack.extend(reversed([part for pair in item.items() for part in pair]))
    return found


def from_snapshot(snapshot: Snapshot, job_id: str) -> JobFacts | None:
    """The facts of ``job_id`` as the committed ledger and the overlay say (``None``: no job)."""
    row = snapshot.joined(job_id)
    if row is None:
        return None
    config = snapshot.config
    error = snapshot.overlay_error
    return collect(
        row,
        overlay_path=config.overlay_display,
        required=config.cells.required,
        bulk_retry_limit=config.verdict.bulk_retry_limit,
        unreadable=(f"line {error.line}: " if error and error.line else "") + error.message
        if error is not None
        else None,
        stale=snapshot.stale,
        duplicate=snapshot.duplicate(job_id),
        ledger_fact=ledger_file_fact(snapshot),
        reading=reading_of(snapshot),
    )


def reading_of(snapshot: Snapshot) -> Reading:
    """What the grades need from the session's one reading: its digests, its staleness, its day."""
    return Reading(
        ledger_sha256=snapshot.ledger_sha256,
        ledger_fresh_extraction=snapshot.origin != COMMITTED,
        ledger_stale=snapshot.stale,
        overlay_sha256=snapshot.overlay_sha256,
        today=snapshot.today,
    )


def ledger_file_fact(snapshot: Snapshot) -> Fact:
    """Which ledger the source facts come from, and whether it is still what the code gives."""
    display = snapshot.config.ledger_display
    grade = ledger_file_quality(reading_of(snapshot))
    if snapshot.origin == COMMITTED:
        note = f"stale: {snapshot.stale}" if snapshot.stale else "matches a fresh extraction"
        return Fact("ledger", "committed", Evidence.SOURCE, display, note, grade)
    note = f"no committed ledger at {display}; read from a fresh extraction of the code"
    if snapshot.stale:
        note = f"the committed ledger is unusable ({snapshot.stale}); read from a fresh extraction"
    return Fact("ledger", "fresh extraction", Evidence.SOURCE, "the code", note, grade)


def ledger_facts(job: Job, reading: Reading | None = None) -> tuple[Fact, ...]:
    """The registration and each resolved field: proved from the source, or missing and why;
    graded with the ledger's digest and freshness."""
    reading = reading if reading is not None else Reading()
    facts = [
        Fact("registration", f"{job.framework} {job.decorator}", Evidence.SOURCE, job.location)
    ]
    for name in RESOLVED_FIELDS:
        value = getattr(job, name)
        if value is None:
            reason = job.unresolved.get(name, "not proved from the source")
            facts.append(Fact(name, None, Evidence.MISSING, job.location, reason))
        else:
            facts.append(
                Fact(name, value, Evidence.SOURCE, job.location, job.defaults.get(name, ""))
            )
    return tuple(
        replace(fact, quality=ledger_quality(reading, fact, default=fact.name in job.defaults))
        for fact in facts
    )


def _cell_fact(row: JoinedJob, name: str, overlay_path: str) -> Fact:
    check = _check_of(row.checks, name)
    cell = row.entry.get(name) if row.entry is not None else None
    if check is not None and check.skipped is not None:
        return Fact(name, None, Evidence.MISSING, None, "the overlay could not be read")
    # A cell that reads as an order keeps its written text: ``collect`` labels it suspect (the
    # gate's finding blocks through the policy-cell rule; the text is never signed evidence).
    suspect = check is not None and _suspect(check.finding)
    if check is not None and check.finding is not None and not suspect:
        finding = check.finding
        return Fact(
            name,
            None,
            Evidence.MISSING,
            finding.location,
            f"[{finding.kind.value}] {finding.kind.description}",
        )
    if cell is None:
        if row.entry is None:
            return Fact(
                name, None, Evidence.MISSING, None, f"no entry for the job in {overlay_path}"
            )
        return Fact(name, None, Evidence.MISSING, None, "not in the job's overlay entry")
    where = f"{overlay_path}:{cell.value_line}"
    if check is None:  # an optional cell holding a blocked value: not judged, not signed
        return Fact(
            name, None, Evidence.MISSING, where, f"holds {describe_value(cell.value)}, no answer"
        )
    value = redact(cell.value, where) if isinstance(cell.value, str) else cell.value
    return Fact(name, value if isinstance(value, (str, int)) else None, Evidence.SIGNED, where)


def _suspect(finding: Finding | None) -> bool:
    return finding is not None and finding.kind is Kind.INJECTED_INSTRUCTION


def _check_of(checks: Sequence[Check], name: str) -> Check | None:
    for check in checks:
        if check.cell == name:
            return check
    return None
