"""The contract every presenter reads: finding kinds, findings, checks and the gate's result.

A finding is a single failing cell (or session-level status) with a located, one-paragraph message
that says how to fix it. Presenters (pytest items, ``jobledger check`` reporters, GitHub
annotations, SARIF, the job summary) only format these records; they never parse sources or
overlays themselves. A new finding kind is one member of :class:`Kind`, with its own title, help
and heading, plus a case folder under ``tests/cases/gate/``. What a pull request changes
(:class:`ChangeReport`, :class:`JobChanges`) is part of the contract too; it is defined beside
the diff that builds it (:mod:`.ledger.diff`).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .ledger.diff import ChangeReport as ChangeReport  # the contract names both; they live by
from .ledger.diff import JobChanges as JobChanges  # the diff that builds them

if TYPE_CHECKING:
    from .ledger.model import Job
    from .overlay.model import Entry

#: The key of the ``user_properties`` entry a failing pytest item carries: ``Finding.to_json()``.
FINDING_PROPERTY = "jobledger_finding"
#: The key the base status item carries: ``ChangeReport.to_json()``, or ``{"unavailable": why}``.
CHANGES_PROPERTY = "jobledger_changes"

#: The job part of every session-level status item (``jobledger-status::<name>``), whichever
#: stage builds it: the gate's own two, and the runbook's freshness.
STATUS_JOB = "jobledger-status"


class Kind(str, enum.Enum):
    """Why a cell fails. The value is the stable name used in JSON output, titles and SARIF.

    Each member carries what every presenter says about it: ``description`` (one sentence: what
    is wrong), ``help`` (what to do) and ``heading`` (the job summary's section title).
    ``Kind("unsigned")`` looks a member up by its value, as for any enum.
    """

    description: str
    help: str
    heading: str

    def __new__(cls, value: str, description: str = "", help: str = "", heading: str = "") -> Kind:
        member = str.__new__(cls, value)
        member._value_ = value
        member.description = description
        member.help = help
        member.heading = heading
        return member

    UNSIGNED = (
        "unsigned",
        "A required policy cell is missing, empty or holds a blocked value.",
        "Sign the cell in the overlay with a real value; a job with no entry needs one.",
        "Unsigned cells",
    )
    NOT_YES_NO = (
        "not-yes-no",
        "`idempotent` is not exactly the string yes or no.",
        'Write `idempotent: "yes"` or `"no"` (quoted), so YAML 1.1 and 1.2 readers agree.',
        "`idempotent` is not exactly yes or no",
    )
    NOT_TEXT = (
        "not-text",
        "A policy cell holds a value that is not text (a number, list or mapping).",
        "Write the cell as a quoted string.",
        "Cells that are not text",
    )
    ORPHAN = (
        "orphan",
        "An overlay entry names a job that is not in the ledger.",
        "Rename the entry to the job's current id, or delete it if the job is gone.",
        "Orphan overlay entries",
    )
    LANE_MIXING = (
        "lane-mixing",
        "An overlay entry carries a field that belongs to the ledger.",
        "Remove the field from the overlay; the ledger states it from source.",
        "Ledger fields in the overlay",
    )
    UNKNOWN_KEY = (
        "unknown-key",
        "An overlay entry has a key the overlay schema does not know.",
        "Fix the spelling or remove the key.",
        "Unknown overlay keys",
    )
    UNSUPPORTED = (
        "unsupported",
        "A job registration the static parser cannot follow.",
        "Register the job in a form the parser reads, or exclude the place on purpose.",
        "Registrations the parser cannot follow",
    )
    DUPLICATE_ID = (
        "duplicate-id",
        "Two registrations share one job id.",
        "Rename one of the functions or give each a distinct registered name.",
        "Duplicate job ids",
    )
    OVERLAY_INVALID = (
        "overlay-invalid",
        "The overlay does not parse or does not match its schema.",
        "Fix the overlay at the reported line.",
        "Overlay does not parse or match its schema",
    )
    LEDGER_STALE = (
        "ledger-stale",
        "The committed ledger differs from a fresh extraction.",
        "Run `jobledger extract` and commit the result.",
        "Committed ledger is stale",
    )
    # -- signatures that stay true: review after change, review age, owners, allowed values --
    REVIEW_AFTER_CHANGE = (
        "review-after-change",
        "A job's ledger row changed since the base, but its signed overlay entry did not.",
        "Re-read the entry against the new code and touch it in the same pull request "
        "(for example update `reviewed_on`).",
        "Changed jobs whose signatures were not reviewed",
    )
    REVIEW_EXPIRED = (
        "review-expired",
        "An entry's `reviewed_on` is older than `max_review_age_days`.",
        "Check the entry with the job's owner (paging owners rotate) and update `reviewed_on`.",
        "Reviews older than the configured age",
    )
    NOT_A_DATE = (
        "not-a-date",
        "A date cell is not a real YYYY-MM-DD day, or is in the future.",
        'Write the day the entry was checked, e.g. `reviewed_on: "2025-03-14"`.',
        "Dates that are not a past YYYY-MM-DD day",
    )
    UNKNOWN_OWNER = (
        "unknown-owner",
        "A `paging_owner` names no rotation in the owners roster.",
        "Name a rotation listed in the roster, or add the new rotation to the roster.",
        "Paging owners that are not in the roster",
    )
    OWNERS_INVALID = (
        "owners-invalid",
        "The owners roster is missing, does not parse or is not a list or mapping of names.",
        "Fix the roster at the reported line (a YAML list of names, or name: contact).",
        "Owners roster cannot be used",
    )
    NOT_ALLOWED = (
        "not-allowed",
        "A cell holds a value that is not one of its configured allowed values.",
        "Write one of the allowed values, or add the value to the cell's `allowed` list.",
        "Values that are not allowed",
    )
    DIFFERENT_SIGNERS = (
        "different-signers",
        "With `same_signer`, the last change to a job's `idempotent` and to its "
        "`purpose_accepted` come from different authors.",
        "Have the author who signed `idempotent` review and re-sign `purpose_accepted` (or the "
        "other way round), so one person vouches for both.",
        "Idempotency and purpose signed by different people",
    )
    SIGNERS_UNKNOWN = (
        "signers-unknown",
        "With `same_signer`, git history cannot say who last changed the overlay's lines (a "
        "shallow clone, no repository, an uncommitted overlay).",
        "Fetch the history (actions/checkout with `fetch-depth: 0`, or `git fetch --unshallow`) "
        "and commit the overlay.",
        "Signers that history cannot name",
    )

    # -- the verdict's optional cells --
    NOT_WHOLE_NUMBER = (
        "not-whole-number",
        "A cell that takes a whole number (such as `bulk_retry_limit`) holds something else.",
        "Write an unquoted whole number, e.g. `bulk_retry_limit: 100`.",
        "Cells that are not whole numbers",
    )

    INJECTED_INSTRUCTION = (
        "injected-instruction",
        "A cell reads as an order to the tool or an operator (a possible injected instruction), "
        "so it is not counted as signed.",
        "Have a person read the cell and rewrite it as policy (what happens), not as an "
        "instruction.",
        "Cells that read as instructions",
    )

    # -- a signed promise checked against what the code says --
    RERUN_NOT_IDEMPOTENT = (
        "rerun-not-idempotent",
        'A job signed `idempotent` (or `business_idempotent`) "no" is run again by its '
        "framework (late ack, automatic retries), and no `dedupe_guard` says how a duplicate is "
        "made harmless.",
        "Sign `dedupe_guard` with how a second run is prevented or made harmless (a unique key "
        "the job checks), or turn the rerun off at the registration.",
        "Jobs the framework reruns that are signed not idempotent",
    )

    UNKNOWN_QUEUE = (
        "unknown-queue",
        "A `dead_letter_queue` names a queue the code does not declare (renamed or gone), so the "
        "poison policy points nowhere.",
        "Name a queue the code declares (a job's queue, Celery task_routes, Dramatiq's "
        "<queue>.XQ), or list a queue declared on the broker in [tool.jobledger] broker_queues.",
        "Dead-letter queues the code does not declare",
    )

    # -- the runbook --
    RUNBOOK_STALE = (
        "runbook-stale",
        "The committed runbook differs from a fresh render of the ledger and the overlay.",
        "Run `jobledger render` and commit the result.",
        "Committed runbook is stale",
    )

    # -- robustness --
    NO_JOBS = (
        "no-jobs",
        "The scan found no job registration, so the gate would check nothing.",
        "Fix `paths` and `exclude` in [tool.jobledger], or set `allow_empty = true` there if the "
        "project has no background jobs on purpose.",
        "No job registration found",
    )

    # -- the baseline (a legacy repository's known failures) --
    BASELINE_STALE = (
        "baseline-stale",
        "A baseline entry records a failure that is gone: the cell is fixed, or the job is gone.",
        "Run `jobledger baseline --shrink` to drop the fixed entries from the baseline (it adds "
        "nothing), and commit the smaller file.",
        "Stale baseline entries",
    )
    BASELINE_GROWN = (
        "baseline-grown",
        "A baseline entry that the base's baseline does not hold: the pull request added it, "
        "and a pull request cannot accept its own failures.",
        "Fix the failure, or take the entry out (restore the base's file with `git checkout "
        "<base> -- <baseline>`); a baseline grows only on the default branch, by its owners.",
        "Baseline entries the base does not hold",
    )


class Status(str, enum.Enum):
    """Every status item, ``jobledger-status::<value>``, in the order they come: the project's
    footing rather than a job's cell. A check names one by its ``value`` (plain text)."""

    OVERLAY = "overlay-valid"
    LEDGER = "ledger-fresh"
    JOBS = "jobs-found"
    OWNERS = "owners-valid"
    BASE = "review-base"
    RUNBOOK = "runbook-fresh"
    SIGNERS = "same-signer"


class Level(str, enum.Enum):
    """How much a finding weighs: only an error fails the gate.

    Every presenter honours it: pytest (an error fails its item; a warning passes with a
    :class:`~pytest_jobledger.plugin.JobledgerWarning`; a notice passes quietly), ``jobledger
    check`` (listed, exit code unaffected), GitHub (``::error``/``::warning``/``::notice``),
    SARIF (``error``/``warning``/``note``) and the job summary.
    """

    ERROR = "error"
    """The promise does not hold: the item fails."""
    WARNING = "warning"
    """A reviewer should look (``review_on_change = "warn"``); the item passes."""
    NOTICE = "notice"
    """Known and accepted (a baseline's known failure); reported, never failing."""

    @property
    def fails(self) -> bool:
        return self is Level.ERROR


@dataclass(frozen=True)
class Finding:
    """One failing cell (or session-level status) with where it is and how to fix it.

    ``job`` and ``cell`` name the item (``overlay::job::cell``); ``path``/``line`` point at the line
    a reviewer must look at, relative to the project root with ``/`` separators. ``level`` says
    whether it fails the gate (:class:`Level`).
    """

    kind: Kind
    job: str
    cell: str
    path: str
    line: int
    message: str
    level: Level = Level.ERROR
    baselined: bool = False
    """A known failure listed in the baseline: reported at :attr:`Level.NOTICE`, an ``xfail``
    item in pytest (``pytest_jobledger.baseline``)."""
    also: tuple[tuple[str, int], ...] = ()
    """Other lines the finding is about, as ``(path, line)``: a cross-lane finding sits at the
    overlay's promise and also at the code's registration (an annotation and a SARIF related
    location each)."""

    @property
    def location(self) -> str:
        return f"{self.path}:{self.line}"

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "id": self.job,
            "cell": self.cell,
            "kind": self.kind.value,
            "path": self.path,
            "line": self.line,
            "message": self.message,
            "level": self.level.value,
        }
        if self.baselined:
            data["baselined"] = True
        if self.also:
            data["also"] = [{"path": path, "line": line} for path, line in self.also]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Finding:
        """The inverse of :meth:`to_json` (for presenters that receive findings from a report)."""
        return cls(
            kind=Kind(data["kind"]),
            job=str(data["id"]),
            cell=str(data["cell"]),
            path=str(data["path"]),
            line=int(data["line"]),
            message=str(data["message"]),
            level=Level(data.get("level", Level.ERROR.value)),
            baselined=bool(data.get("baselined", False)),
            also=tuple((str(row["path"]), int(row["line"])) for row in data.get("also", [])),
        )


@dataclass(frozen=True)
class Check:
    """One gate item: where it points, and the finding when it fails.

    ``skipped`` holds the reason a check could not be judged (the overlay did not parse); such a
    check neither passes nor fails, the overlay status item fails instead.
    """

    job: str
    cell: str
    path: str
    line: int
    finding: Finding | None = None
    skipped: str | None = None

    @property
    def name(self) -> str:
        return f"{self.job}::{self.cell}"

    @property
    def passed(self) -> bool:
        """No finding, or one that does not fail (a warning or a notice)."""
        return self.finding is None or not self.finding.level.fails

    def to_json(self) -> dict[str, object]:
        """The item as JSON (what the xdist controller hands its workers)."""
        return {
            "job": self.job,
            "cell": self.cell,
            "path": self.path,
            "line": self.line,
            "finding": self.finding.to_json() if self.finding is not None else None,
            "skipped": self.skipped,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Check:
        """The inverse of :meth:`to_json`."""
        finding = data.get("finding")
        skipped = data.get("skipped")
        return cls(
            job=str(data["job"]),
            cell=str(data["cell"]),
            path=str(data["path"]),
            line=int(data["line"]),
            finding=Finding.from_json(finding) if isinstance(finding, Mapping) else None,
            skipped=str(skipped) if skipped is not None else None,
        )

    @classmethod
    def failed(cls, finding: Finding) -> Check:
        """The failing item a finding is: named and located by the finding itself."""
        return cls(finding.job, finding.cell, finding.path, finding.line, finding=finding)

    @classmethod
    def status(cls, item: Status, path: str, line: int, *, skipped: str | None = None) -> Check:
        """A status item that passes (or, with ``skipped``, had nothing to judge)."""
        return cls(STATUS_JOB, item.value, path, line, skipped=skipped)

    @classmethod
    def status_failed(cls, kind: Kind, item: Status, path: str, line: int, message: str) -> Check:
        """A failing status item (``jobledger-status::<item>``): the project's footing, not a
        job's cell."""
        finding = Finding(
            kind=kind, job=STATUS_JOB, cell=item.value, path=path, line=line, message=message
        )
        return cls.failed(finding)


@dataclass(frozen=True)
class JoinedJob:
    """One ledger job, the overlay entry that signs for it (if any), and the checks of its cells.

    The join builds these once; checks, presenters and the runbook read them instead of going back
    to the ledger and the overlay cell by cell.
    """

    job: Job
    entry: Entry | None
    checks: tuple[Check, ...]

    @property
    def signed(self) -> bool:
        """Every check of this job passes (none fails, none was skipped, and none passes only
        because the baseline knows it fails)."""
        return all(
            check.passed
            and check.skipped is None
            and not (check.finding is not None and check.finding.baselined)
            for check in self.checks
        )


@dataclass(frozen=True)
class Inputs:
    """What one gate run read, by SHA-256, so a page rendered from it can name its sources.

    ``ledger`` is the digest of the fresh ledger's canonical text (``Ledger.dumps()``, UTF-8):
    the committed file's bytes whenever the ledger-fresh item passes. ``overlay`` is the digest
    of the overlay file's bytes as the gate read them; ``None`` when there is no file or it
    could not be read.
    """

    ledger: str
    overlay: str | None = None


@dataclass(frozen=True)
class GateResult:
    """Every check of one gate run, status checks first, in a stable order, and the joined jobs."""

    checks: tuple[Check, ...]
    jobs: tuple[JoinedJob, ...] = ()
    changes: ChangeReport | None = None
    """What changed since the base, when one was given and could be read."""
    inputs: Inputs | None = None

    @property
    def findings(self) -> list[Finding]:
        """Every finding, whatever its level (presenters show warnings and notices too)."""
        return [check.finding for check in self.checks if check.finding is not None]

    @property
    def failed(self) -> bool:
        """Whether any finding fails the gate (a warning or a notice alone does not)."""
        return any(finding.level.fails for finding in self.findings)
