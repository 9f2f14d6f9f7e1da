"""Whether a signature still holds: a review's date and age, a known owner, an allowed value.

Pure, like :mod:`.cells`, which calls these once a cell holds an answer: each returns the failing
:class:`~pytest_jobledger.findings.Check` with a message that names the place and the fix, or
``None`` when the answer holds.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.text import did_you_mean
from ..findings import Check, Finding, Kind
from ..ledger.model import Job
from ..overlay.cells import CELLS, CellSpec
from ..overlay.model import Cell
from ..overlay.roster import Roster
from ..overlay.values import describe_value

#: The cell a roster checks.
PAGING_OWNER = "paging_owner"

_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(frozen=True)
class Signatures:
    """What the gate checks signatures against: today, the review age, the roster."""

    path: str
    today: datetime.date
    max_age_days: int | None = None
    roster: Roster | None = None

    def date_check(self, job: Job, cell: Cell) -> Check:
        """A real ``YYYY-MM-DD`` day, not in the future, and (with a maximum age) recent enough.

        The overlay reader keeps timestamps as text, so ``cell.value`` is what was written. An
        unquoted day is accepted: PyYAML reads it as a date, but the same day, so every tool
        agrees on what it says.
        """
        value = cell.value
        where = f"Job {job.id}: the {cell.key!r} cell at {self.path}:{cell.value_line}"
        want = f'write the day the entry was checked, e.g. `{cell.key}: "{self.today}"`'
        day = _day(value) if isinstance(value, str) else None
        if day is None:
            shown = describe_value(value)
            return self._fail(
                Kind.NOT_A_DATE,
                job,
                cell,
                f"{where} holds {shown}, not a real day written exactly YYYY-MM-DD (no time, no "
                "time zone, a two-digit month and day, so every reader sees the same day); "
                f"{want}.",
            )
        agrees = cell.same_in_yaml11 or cell.yaml11 == day
        if not agrees:
            return self._fail(
                Kind.NOT_A_DATE,
                job,
                cell,
                f"{where} reads as {value!r} to YAML 1.2 readers but as "
                f"{describe_value(cell.yaml11)} to PyYAML-based tools; {want}.",
            )
        if day > self.today:
            return self._fail(
                Kind.NOT_A_DATE,
                job,
                cell,
                f"{where} is {day}, in the future (today is {self.today}); a review is dated "
                f"the day it happened: {want}.",
            )
        age = (self.today - day).days
        if self.max_age_days is not None and age > self.max_age_days:
            return self._fail(
                Kind.REVIEW_EXPIRED,
                job,
                cell,
                f"{where}: the entry was last reviewed on {day}, {age} days ago, over "
                f"max_review_age_days = {self.max_age_days} (today is {self.today}). Paging "
                "owners rotate faster than task names: check every cell of the entry with the "
                f"job's owner, then set `{cell.key}` to the day you did.",
            )
        return Check(job.id, cell.key, self.path, cell.value_line)

    def allowed_check(self, job: Job, cell: Cell, spec: CellSpec) -> Check | None:
        """A text answer that is one of the cell's configured ``allowed`` values."""
        if not spec.allowed or cell.value in spec.allowed:
            return None
        builtin = CELLS.get(cell.key)
        own = builtin is None or builtin.allowed != spec.allowed
        origin = f"set in [tool.jobledger.cells.{cell.key}]" if own else "fixed by the vocabulary"
        return self._fail(
            Kind.NOT_ALLOWED,
            job,
            cell,
            f"Job {job.id}: the {cell.key!r} cell at {self.path}:{cell.value_line} holds "
            f"{describe_value(cell.value)}{_suggest(cell.value, spec.allowed)}, which is not one "
            f"of its allowed values ({', '.join(repr(v) for v in spec.allowed)}, {origin}). "
            "Write one of them"
            + (", or add the new value there if the project agreed on it." if own else "."),
        )

    def owner_check(self, job: Job, cell: Cell) -> Check | None:
        """A ``paging_owner`` that the roster lists (exactly, one rotation per cell)."""
        roster = self.roster
        if roster is None or cell.key != PAGING_OWNER or cell.value in roster:
            return None
        known = sorted(roster.owners)
        return self._fail(
            Kind.UNKNOWN_OWNER,
            job,
            cell,
            f"Job {job.id}: the paging owner {cell.value!r} at "
            f"{self.path}:{cell.value_line} is not in the owners roster {roster.path}"
            f"{_suggest(cell.value, known)}. A page to a rotation that does not exist reaches "
            f"nobody: name one of the {len(known)} rotations listed there, or add the new "
            f"rotation to {roster.path} in the same change.",
        )

    def _fail(self, kind: Kind, job: Job, cell: Cell, message: str) -> Check:
        return Check.failed(
            Finding(
                kind=kind,
                job=job.id,
                cell=cell.key,
                path=self.path,
                line=cell.value_line,
                message=message,
            )
        )


def _day(text: str) -> datetime.date | None:
    if not _DAY.fullmatch(text):
        return None
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        return None


def _suggest(value: object, options: Sequence[str]) -> str:
    close = did_you_mean(value, options) if isinstance(value, str) else None
    return f" (did you mean {close!r}?)" if close else ""
