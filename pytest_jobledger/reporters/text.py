"""Plain text, one finding per line: ``path:line: id::cell [kind] message`` (editors jump to it)."""

from __future__ import annotations

from collections.abc import Sequence

from ..config import Config
from ..findings import Finding, Level
from ..text import one_line


def format_finding(finding: Finding) -> str:
    """``path:line: id::cell [kind] message``; a warning or notice says so after the location
    (``path:line: warning: ...``), the way compilers mark what does not fail the build."""
    name = f"{finding.job}::{finding.cell}"
    level = "" if finding.level.fails else f"{finding.level.value}: "
    return one_line(f"{finding.location}: {level}{name} [{finding.kind.value}] {finding.message}")


def report(findings: Sequence[Finding], config: Config) -> str:
    lines = [format_finding(finding) for finding in findings]
    failing = sum(1 for finding in findings if finding.level.fails)
    others = [
        _count(sum(1 for f in findings if f.level is level), level.value)
        for level in (Level.WARNING, Level.NOTICE)
        if any(f.level is level for f in findings)
    ]
    if failing:
        tail = f" ({', '.join(others)} that do not fail)" if others else ""
        lines.append(f"jobledger: {_count(failing, 'finding')}{tail}")
    elif others:
        lines.append(f"jobledger: no failing findings ({', '.join(others)})")
    else:
        lines.append("jobledger: no findings; every required cell is signed")
    return "\n".join(lines) + "\n"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
