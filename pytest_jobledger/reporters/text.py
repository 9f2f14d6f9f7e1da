"""Plain text, one finding per line: ``path:line: id::cell [kind] message`` (editors jump to it)."""

from __future__ import annotations

from collections.abc import Sequence

from ..config import Config
from ..findings import Finding
from ..text import one_line


def format_finding(finding: Finding) -> str:
    name = f"{finding.job}::{finding.cell}"
    return one_line(f"{finding.location}: {name} [{finding.kind.value}] {finding.message}")


def report(findings: Sequence[Finding], config: Config) -> str:
    lines = [format_finding(finding) for finding in findings]
    if findings:
        noun = "finding" if len(findings) == 1 else "findings"
        lines.append(f"jobledger: {len(findings)} {noun}")
    else:
        lines.append("jobledger: no findings; every required cell is signed")
    return "\n".join(lines) + "\n"
