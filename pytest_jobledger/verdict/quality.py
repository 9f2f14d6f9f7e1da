"""How good each piece of evidence is: six dimensions, each a short value a person can read.

A label (:class:`~.model.Evidence`) says where a fact comes from; an operator in an incident also
needs to know how much it can bear. For every fact:

- **source**: ledger (the code, extracted), overlay (a person's signed cell), request (typed on
  the command line); roster and trail are kept for facts read from them;
- **integrity**: the sha256 of the exact bytes the value was read at (short form), so the audit
  line and the card name the same file version; "none" when nothing was read from a file;
- **freshness**: for the ledger, fresh or stale against the code; for a cell, the age of its
  signed ``reviewed_on`` (undated without one); for a request, now;
- **completeness**: complete, or partial (a declared decorator's default, not a value written
  at the registration) or missing, and why;
- **independence**: source code, signed by a person, or self-reported;
- **stage**: the control that produced it: static extraction, human signature, runtime request.

Pure, like :mod:`.facts`: the digests and the day come from the session's reading
(:class:`Reading`), never from a file read here.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from ..core.text import clip, one_line
from .model import Evidence, Fact, Quality

#: How many hex digits of a sha256 a grade shows (the audit line has both files' whole digests).
SHORT = 12


@dataclass(frozen=True)
class Reading:
    """What the session read, as the grades need it: which ledger (and whether it is the code's),
    the sha256 of the ledger's and the overlay's bytes, and today. No I/O: the session passes it."""

    ledger_sha256: str | None = None
    ledger_fresh_extraction: bool = False
    ledger_stale: str | None = None
    overlay_sha256: str | None = None
    today: datetime.date | None = None


def integrity(digest: str | None) -> str:
    return f"sha256:{digest[:SHORT]}" if digest else "not recorded"


def ledger_freshness(reading: Reading) -> str:
    if reading.ledger_fresh_extraction:
        return "fresh: extracted now"
    if reading.ledger_stale is not None:
        return "stale against the code"
    return "fresh: matches the code" if reading.ledger_sha256 else "not recorded"


def ledger_quality(reading: Reading, fact: Fact, *, default: bool = False) -> Quality:
    """A ledger fact: the code's own value, a framework's default, or not proved."""
    if fact.evidence is Evidence.MISSING:
        completeness = f"missing: {fact.note}" if fact.note else "missing"
    elif default:
        completeness = "partial: the decorator's default, not written at the registration"
    else:
        completeness = "complete"
    return Quality(
        "ledger",
        integrity(reading.ledger_sha256),
        ledger_freshness(reading),
        completeness,
        "source code",
        "static extraction",
    )


def review_freshness(reading: Reading, reviewed: Fact | None) -> str:
    """A signed cell's freshness: its entry's ``reviewed_on`` age in days, or why there is none."""
    if reviewed is None or (reviewed.evidence is Evidence.MISSING and reviewed.where is None):
        return "undated: no reviewed_on signed"
    if reviewed.evidence is not Evidence.SIGNED or not isinstance(reviewed.value, str):
        return f"review date unusable ({reviewed.where})"
    try:
        day = datetime.date.fromisoformat(reviewed.value.strip())
    except ValueError:
        return f"review date unusable ({reviewed.where})"
    if reading.today is None:
        return f"reviewed {day}"
    age = (reading.today - day).days
    return f"reviewed {age} day{'s' if age != 1 else ''} ago ({day})"


def cell_quality(reading: Reading, fact: Fact, reviewed: Fact | None) -> Quality:
    """An overlay cell: signed, suspect (reads as an instruction) or missing, and why."""
    if fact.evidence is Evidence.SIGNED:
        completeness = "complete"
    elif fact.evidence is Evidence.SUSPECT:
        completeness = "unusable: reads as an instruction"
    else:
        completeness = f"missing: {fact.note}" if fact.note else "missing"
    signed = fact.evidence in (Evidence.SIGNED, Evidence.SUSPECT)
    return Quality(
        "overlay",
        integrity(reading.overlay_sha256),
        review_freshness(reading, reviewed) if signed else "n/a",
        completeness,
        "signed by a person" if signed else "none: nobody signed it",
        "human signature",
    )


def ledger_file_quality(reading: Reading) -> Quality:
    """The ledger the source facts come from, as a whole."""
    return Quality(
        "ledger",
        integrity(reading.ledger_sha256),
        ledger_freshness(reading),
        "complete",
        "source code",
        "static extraction",
    )


#: How much of one value a card shows (``--json`` has it whole).
VALUE_WIDTH = 48

#: The dimensions in the order a card shows them.
HEADING = "source, integrity, freshness, completeness, independence, stage"


def quality_lines(facts: Iterable[Fact]) -> list[str]:
    """One line per fact, the six values in :data:`HEADING` order, names aligned, each clipped."""
    facts = list(facts)
    width = max((len(fact.name) for fact in facts), default=0)
    lines = [f"Evidence quality ({HEADING}):"]
    for fact in facts:
        grade = fact.quality
        values = (
            grade.source,
            grade.integrity,
            grade.freshness,
            grade.completeness,
            grade.independence,
            grade.stage,
        )
        shown = " | ".join(clip(value, VALUE_WIDTH) for value in values)
        lines.append(one_line(f"  {fact.name:<{width}} {shown}"))
    return lines
