"""The contract every presenter reads: finding kinds, findings, checks and the gate's result.

A finding is a single failing cell (or session-level status) with a located, one-paragraph message
that says how to fix it. Presenters (pytest items, ``jobledger check`` reporters, GitHub
annotations, SARIF, the job summary) only format these records; they never parse sources or
overlays themselves. A new finding kind is one member of :class:`Kind`, with its own title, help
and heading, plus a case folder under ``tests/cases/gate/``.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .ledger.model import Job
    from .overlay.model import Entry

#: The key of the ``user_properties`` entry a failing pytest item carries: ``Finding.to_json()``.
FINDING_PROPERTY = "jobledger_finding"


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
    NO_JOBS = (
        "no-jobs",
        "The scan found no job registration, so the gate would check nothing.",
        "Fix `paths` and `exclude` in [tool.jobledger], or set `allow_empty = true` there if the "
        "project has no background jobs on purpose.",
        "No job registration found",
    )


@dataclass(frozen=True)
class Finding:
    """One failing cell (or session-level status) with where it is and how to fix it.

    ``job`` and ``cell`` name the item (``overlay::job::cell``); ``path``/``line`` point at the line
    a reviewer must look at, relative to the project root with ``/`` separators.
    """

    kind: Kind
    job: str
    cell: str
    path: str
    line: int
    message: str

    @property
    def location(self) -> str:
        return f"{self.path}:{self.line}"

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.job,
            "cell": self.cell,
            "kind": self.kind.value,
            "path": self.path,
            "line": self.line,
            "message": self.message,
        }

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

    @classmethod
    def failed(cls, finding: Finding) -> Check:
        """The failing item a finding is: named and located by the finding itself."""
        return cls(finding.job, finding.cell, finding.path, finding.line, finding=finding)


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
        """Every check of this job passes (none fails and none was skipped)."""
        return all(check.finding is None and check.skipped is None for check in self.checks)


@dataclass(frozen=True)
class GateResult:
    """Every check of one gate run, status checks first, in a stable order, and the joined jobs."""

    checks: tuple[Check, ...]
    jobs: tuple[JoinedJob, ...] = ()

    @property
    def findings(self) -> list[Finding]:
        return [check.finding for check in self.checks if check.finding is not None]
