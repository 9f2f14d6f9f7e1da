"""``jobledger check`` as text: grouped by job, totals by kind, and the next command to run.

Failures come first, then warnings, each a section of its own; the known notices (a baselined
cell is one) are counted in the totals and listed only under ``-v``, so a green run is one line.
Each finding is one line of at most 160 characters (:mod:`.short`); ``-v`` adds its whole
message, indented under it. Within a section, findings are grouped by
job, in the gate's order:

- a job with one finding is one line, ``path:line: job::cell [kind] message`` (editors jump to it);
- a job with no overlay entry is one line at its decorator, ``path:line: job: no entry: 5 cells
  unsigned``, and so is an entry none of whose required cells is answered yet (as ``jobledger
  stub`` leaves it), ``path:line: job: all 5 cells unsigned``; ``-v`` lists each cell under it;
- a job with several findings is its id, then one indented ``path:line: cell [kind] message`` each.

The report ends with the totals by kind (``jobledger: 12 jobs, 60 cells signed`` when nothing
fails) and, when something does, ``next:`` lines naming the command that fixes it (``jobledger
stub`` for jobs with no entry, ``jobledger extract`` for a stale ledger). ``-q`` prints only the
totals. Every line goes through :func:`~pytest_jobledger.core.text.one_line` before it is coloured.

Paths are shown from the current folder when the command gives a
:class:`~pytest_jobledger.core.paths.Shown` (``jobledger check`` does), so ``path:line`` opens from
where it ran; the findings themselves stay root-relative.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.paths import Shown
from ..core.text import one_line
from ..findings import Finding, GateResult, Kind, Level
from ..project import Config
from .short import fitted, paragraph, shortened
from .terminal import Style, paint

QUIET, NORMAL, VERBOSE = -1, 0, 1

#: The sections after the failures, with their headings.
HEADINGS = {
    Level.WARNING: "warnings (they do not fail):",
    Level.NOTICE: "known (notices, not counted as failures):",
}
LEVEL_STYLES = {Level.ERROR: Style.RED, Level.WARNING: Style.YELLOW, Level.NOTICE: Style.CYAN}

#: The order the next steps are given in: what blocks every other check first, the runbook last
#: (it is rendered from signed cells). Kinds not listed follow in their declaration order. An
#: orphan's `stub --renames` comes before `extract` and `stub`: it finds a moved job's old id in
#: the committed ledger, which `extract` replaces, and `stub` alone would give the new id a fresh
#: `unknown` entry instead of the signed one.
FIRST = (Kind.OVERLAY_INVALID, Kind.NO_JOBS, Kind.ORPHAN, Kind.LEDGER_STALE, Kind.UNSIGNED)
LAST = (Kind.RUNBOOK_STALE,)


@dataclass(frozen=True)
class Tally:
    """What the findings alone cannot say: the jobs and required cells the gate judged, and
    which jobs have no overlay entry at all."""

    jobs: int
    cells: int
    signed: int
    skipped: int
    no_entry: frozenset[str]
    ids: frozenset[str] = frozenset()
    required: int = 0
    """How many cells each job must sign."""

    @classmethod
    def of(cls, result: GateResult, config: Config) -> Tally:
        required = set(config.cells.vocabulary.required)
        cells = [check for row in result.jobs for check in row.checks if check.cell in required]
        # A warning does not unsign a cell; a known (baselined) failure is not a signature.
        signed = [
            check
            for check in cells
            if check.skipped is None
            and (check.finding is None or check.finding.level is Level.WARNING)
        ]
        return cls(
            jobs=len(result.jobs),
            cells=len(cells),
            signed=len(signed),
            skipped=sum(1 for check in cells if check.skipped is not None),
            no_entry=frozenset(
                row.job.id
                for row in result.jobs
                if row.entry is None and all(check.skipped is None for check in row.checks)
            ),
            ids=frozenset(row.job.id for row in result.jobs),
            required=len(required),
        )


def format_finding(finding: Finding, shown: Shown | None = None) -> str:
    """``path:line: id::cell [kind] message``; a warning or notice says so after the location
    (``path:line: warning: ...``), the way compilers mark what does not fail the build."""
    return one_line(f"{_location(finding, shown)}: {_level(finding)}{_item(finding)}")


def short_line(finding: Finding, shown: Shown | None = None) -> str:
    """The line ``jobledger check`` prints for ``finding`` by default, uncoloured: every place
    that names a finding to a person (a docs build's refusal too) says it the same way."""
    return _row(finding, False, shown, cell_only=False, indent="", verbosity=NORMAL)[0]


def _location(finding: Finding, shown: Shown | None) -> str:
    """``path:line``, the path from the current folder when ``shown`` says where that is."""
    if shown is None:
        return finding.location
    return f"{shown.path(finding.path)}:{finding.line}"


def report(findings: Sequence[Finding], config: Config) -> str:
    """The report from the findings alone (the registry's entry point): without the gate's
    counts, a job with no entry is listed cell by cell."""
    return render(findings, config)


def render(
    findings: Sequence[Finding],
    config: Config,
    tally: Tally | None = None,
    *,
    verbosity: int = NORMAL,
    color: bool = False,
    shown: Shown | None = None,
) -> str:
    """The whole report: the grouped sections (unless quiet), the totals, the next steps."""
    lines: list[str] = []
    if verbosity > QUIET:
        for level in Level:
            chosen = [finding for finding in findings if finding.level is level]
            if not chosen or (level is Level.NOTICE and verbosity < VERBOSE):
                continue  # known items are counted in the totals; -v lists them
            if level in HEADINGS:
                lines.append(paint(HEADINGS[level], Style.BOLD, color))
            lines.extend(_section(chosen, tally, verbosity, color, shown))
    failing = [finding for finding in findings if finding.level.fails]
    style = Style.RED if failing else Style.GREEN
    lines.append(paint(one_line(_totals(findings, tally, verbosity)), style, color))
    if failing and verbosity > QUIET:
        for step in _next_steps(failing, tally, config, shown):
            lines.append(paint("next:", Style.BOLD, color) + " " + one_line(step))
    return "\n".join(lines) + "\n"


# -- the sections -----------------------------------------------------------------------------


def _section(
    findings: Sequence[Finding],
    tally: Tally | None,
    verbosity: int,
    color: bool,
    shown: Shown | None,
) -> list[str]:
    by_job: dict[str, list[Finding]] = {}
    for finding in findings:
        by_job.setdefault(finding.job, []).append(finding)
    lines: list[str] = []
    for job, own in by_job.items():
        unsigned, tag = _collapsed(job, own, tally)
        others = [f for f in own if f not in unsigned]
        rows = (1 if unsigned else 0) + len(others)
        if rows > 1:
            lines.append(paint(one_line(job), Style.BOLD, color))
        indent = "  " if rows > 1 else ""
        if unsigned:
            first = unsigned[0]
            name = "" if rows > 1 else f"{job}: "
            lines.append(
                f"{indent}{_where(first, color, shown)} {one_line(_level(first) + name)}"
                + paint(tag, LEVEL_STYLES[first.level], color)
            )
            if verbosity >= VERBOSE:
                for finding in unsigned:
                    lines.extend(
                        _row(
                            finding,
                            color,
                            shown,
                            cell_only=True,
                            indent=indent + "  ",
                            verbosity=verbosity,
                        )
                    )
        for finding in others:
            lines.extend(
                _row(finding, color, shown, cell_only=rows > 1, indent=indent, verbosity=verbosity)
            )
    return lines


def _collapsed(job: str, own: Sequence[Finding], tally: Tally | None) -> tuple[list[Finding], str]:
    """The unsigned cells that one line stands for, and that line's words: every cell of a job
    with no entry ("no entry: 5 cells unsigned"), or of an entry none of whose required cells is
    answered yet, as the stub leaves it ("all 5 cells unsigned")."""
    if tally is None:
        return [], ""
    unsigned = [finding for finding in own if finding.kind is Kind.UNSIGNED]
    count = f"{len(unsigned)} cell{'' if len(unsigned) == 1 else 's'} unsigned"
    if job in tally.no_entry and unsigned:
        return unsigned, f"no entry: {count}"
    if tally.required > 1 and len(unsigned) == tally.required:
        return unsigned, f"all {count}"
    return [], ""


def _row(
    finding: Finding,
    color: bool,
    shown: Shown | None,
    *,
    cell_only: bool,
    indent: str,
    verbosity: int,
) -> list[str]:
    """``path:line: [level: ]job::cell [kind] first sentence`` (``cell [kind] ...`` under its job),
    at most :data:`~pytest_jobledger.reporters.short.WIDTH` characters; ``-v`` adds the whole
    message, indented under it."""
    # An unsupported place is named by its location already: no need to say it twice.
    short = cell_only or finding.job == finding.location
    name = one_line(finding.cell if short else f"{finding.job}::{finding.cell}")
    where = one_line(f"{_location(finding, shown)}:")
    level = one_line(_level(finding))
    kind = f"[{finding.kind.value}]"
    used = len(f"{indent}{where} {level}{name} {kind} ")
    text = fitted(finding, used, shown)
    painted = paint(kind, LEVEL_STYLES[finding.level], color)
    lines = [f"{indent}{paint(where, Style.BOLD, color)} {level}{name} {painted} {text}"]
    if verbosity >= VERBOSE and shortened(finding, text):
        lines.extend(paragraph(finding, indent + "    ", shown))
    return lines


def _where(finding: Finding, color: bool, shown: Shown | None) -> str:
    return paint(one_line(f"{_location(finding, shown)}:"), Style.BOLD, color)


def _item(finding: Finding) -> str:
    return f"{finding.job}::{finding.cell} [{finding.kind.value}] {finding.message}"


def _level(finding: Finding) -> str:
    return "" if finding.level.fails else f"{finding.level.value}: "


# -- the totals and the next steps --------------------------------------------------------------


def _totals(findings: Sequence[Finding], tally: Tally | None, verbosity: int = NORMAL) -> str:
    failing = [finding for finding in findings if finding.level.fails]
    quiet = [
        _count(sum(1 for f in findings if f.level is level), noun)
        for level, noun in ((Level.WARNING, "warning"), (Level.NOTICE, "known"))
        if any(f.level is level for f in findings)
    ]
    hidden = verbosity == NORMAL and any(f.level is Level.NOTICE for f in findings)
    aside = (
        f"; {', '.join(quiet)} (not failing{'; -v lists them' if hidden else ''})" if quiet else ""
    )
    if not failing:
        if tally is None:
            return f"jobledger: no failing findings{aside}"
        # A known (baselined) cell passes without being signed.
        signed = f"{tally.signed} of " if tally.signed != tally.cells else ""
        cells = _count(tally.cells, "cell")
        return f"jobledger: {_count(tally.jobs, 'job')}, {signed}{cells} signed{aside}"
    kinds = Counter(finding.kind for finding in failing)
    by_kind = ", ".join(f"{kinds[kind]} {kind.value}" for kind in Kind if kinds[kind])
    head = f"jobledger: {_count(len(failing), 'failing finding')} ({by_kind})"
    if tally is not None and not tally.jobs:
        head += "; no jobs"
    elif tally is not None:
        # Jobs of the ledger only: not the status items, orphans or unsupported places.
        jobs = {finding.job for finding in failing if finding.job in tally.ids}
        total = _count(tally.jobs, "job")
        head += f" in {len(jobs)} of {total}; " if jobs else f"; {total}, "
        head += f"{tally.signed} of {_count(tally.cells, 'cell')} signed"
        if tally.skipped:
            head += f", {tally.skipped} not judged"
    return head + aside


def _next_steps(
    failing: Sequence[Finding], tally: Tally | None, config: Config, shown: Shown | None
) -> list[str]:
    """One line per kind that fails, most blocking first: the command, or else what to do."""
    ledger, overlay = config.ledger_display, config.overlay_display
    if shown is not None:
        ledger, overlay = shown.path(ledger), shown.path(overlay)
    present = {finding.kind for finding in failing}
    rest = [kind for kind in Kind if kind not in FIRST and kind not in LAST]
    steps: list[str] = []
    for kind in (*FIRST, *rest, *LAST):
        if kind not in present:
            continue
        if kind is Kind.UNSIGNED:
            steps.extend(_unsigned_steps(failing, tally, overlay))
        elif kind is Kind.LEDGER_STALE:
            steps.append(f"`jobledger extract`, then commit {ledger}")
        elif kind is Kind.ORPHAN:
            steps.append(
                "`jobledger stub --renames` first, while the committed ledger still names the old "
                "ids: it moves the entry of a renamed or moved job to its new id; delete the entry "
                "of a job that is gone"
            )
        elif kind is Kind.RUNBOOK_STALE:
            steps.append("`jobledger render`, then commit the runbook")
        elif kind is Kind.NOT_YES_NO:
            steps.append(
                f"`jobledger stub --quote-yes-no` quotes the unquoted yes/no answers in "
                f'{overlay}; any other answer is rewritten by hand as "yes" or "no"'
            )
        else:
            steps.append(f"{kind.value}: {kind.help}")
    return steps


def _unsigned_steps(failing: Sequence[Finding], tally: Tally | None, overlay: str) -> list[str]:
    no_entry = tally.no_entry if tally is not None else frozenset()
    unsigned = [finding for finding in failing if finding.kind is Kind.UNSIGNED]
    missing = sorted({finding.job for finding in unsigned if finding.job in no_entry})
    answer = [finding for finding in unsigned if finding.job not in no_entry]
    steps = []
    if missing:
        steps.append(
            f"`jobledger stub` adds an entry to {overlay} for the {_count(len(missing), 'job')} "
            "with no entry, every cell `unknown`; then each job's owner answers its cells"
        )
    if answer:
        steps.append(
            f"answer the {_count(len(answer), 'unsigned cell')} in {overlay} with each job's "
            "owner (`jobledger check -v` lists every one)"
        )
    return steps


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 or noun == "known" else f"{number} {noun}s"
