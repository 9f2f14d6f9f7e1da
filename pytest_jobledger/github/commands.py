"""GitHub workflow commands for findings: escaping, paths, PR-first order, one annotation per
job and line, and the per-step cap.

Pure functions over :class:`~pytest_jobledger.findings.Finding`, shared by the pytest plugin
(:mod:`pytest_jobledger.github.plugin`) and ``jobledger check --format github``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from ..core.text import clip, escape_surrogates
from ..findings import Finding, Level

#: GitHub shows at most 10 error annotations per step, and as many warnings (50 in all per job);
#: the rest are dropped silently, so we emit up to this many of each and then say how many more
#: there are.
ANNOTATION_LIMIT = 10

#: The workflow command of each level.
COMMANDS = {Level.ERROR: "error", Level.WARNING: "warning", Level.NOTICE: "notice"}

#: An annotation is a pointer, not the report; very long messages are cut to keep the log usable.
MAX_MESSAGE_CHARS = 4000


def escape_data(text: str) -> str:
    """Escape a command's message so that it stays one line and ``%`` survives the round trip (a
    lone surrogate, which cannot be printed as UTF-8, is shown as its ``\\uXXXX`` escape)."""
    return escape_surrogates(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a property value: ``:`` and ``,`` would end the value or the property list."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(
    command: str, message: str, properties: Sequence[tuple[str, str | int | None]] = ()
) -> str:
    """``::command key=value,...::message``, every part escaped; ``None`` values left out."""
    props = ",".join(
        f"{key}={escape_property(str(value))}" for key, value in properties if value is not None
    )
    head = f"::{command} {props}" if props else f"::{command}"
    return f"{head}::{escape_data(message)}"


def real_path(finding: Finding, root: Path) -> Path | None:
    """The file a finding points at, with symlinks resolved; ``None`` for a finding with no file."""
    if not finding.path:
        return None
    return (root / finding.path).resolve()


def display_path(finding: Finding, root: Path, workspace: Path | None) -> str | None:
    """The finding's file relative to ``workspace`` (``/`` separators), as GitHub wants it.

    Findings are relative to the project root, which may sit below the workspace (a
    ``working-directory``, a monorepo, a rootdir further down); the mapping goes through the
    file's real location so symlinked folders annotate the file that is in the diff. Without a
    workspace, or for a file outside it, the root-relative path is kept.
    """
    target = real_path(finding, root)
    if target is None:
        return None
    if workspace is not None:
        try:
            return target.relative_to(workspace.resolve()).as_posix()
        except ValueError:
            pass
    return finding.path


def order_findings(
    findings: Iterable[Finding], root: Path, changed: frozenset[Path] = frozenset()
) -> list[Finding]:
    """Distinct findings, those on files changed in the pull request first, then by place."""

    def key(finding: Finding) -> tuple[int, str, int, str, str, str]:
        first = 0 if real_path(finding, root) in changed else 1
        return (first, finding.path, finding.line, finding.job, finding.cell, finding.kind.value)

    return sorted(set(findings), key=key)


def title(finding: Finding) -> str:
    """A short headline: the kind and the item (``job::cell``) it belongs to."""
    item = "::".join(part for part in (finding.job, finding.cell) if part)
    return f"jobledger {finding.kind.value}: {item}" if item else f"jobledger {finding.kind.value}"


def group_findings(ordered: Iterable[Finding]) -> list[tuple[Finding, ...]]:
    """The findings of one job at one line and level, together, in the order of their first.

    A new job with no overlay entry fails every required cell at its decorator line: five
    annotations on one line would spend half of GitHub's per-step cap on one job.
    """
    groups: dict[tuple[Level, str, str, int], list[Finding]] = {}
    for finding in ordered:
        groups.setdefault((finding.level, finding.job, finding.path, finding.line), []).append(
            finding
        )
    return [tuple(group) for group in groups.values()]


def group_title(group: Sequence[Finding]) -> str:
    """One finding's own title; for several, the kinds and the job with its cells."""
    if len(group) == 1:
        return title(group[0])
    kinds = ", ".join(dict.fromkeys(finding.kind.value for finding in group))
    cells = ", ".join(finding.cell for finding in group)
    return f"jobledger {kinds}: {group[0].job} ({len(group)} cells: {cells})"


def group_message(group: Sequence[Finding]) -> str:
    """One finding's own message; for several, a line per cell, each with its own fix."""
    if len(group) == 1:
        return group[0].message
    head = f"{len(group)} findings for {group[0].job} at this line:"
    return "\n".join([head, *(f"- {f.cell} [{f.kind.value}]: {f.message}" for f in group)])


def annotation(finding: Finding | Sequence[Finding], root: Path, workspace: Path | None) -> str:
    """One ``::error`` (``::warning``, ``::notice``) command pointing at the finding's line (or
    at the one line a group of one job's findings shares)."""
    group = (finding,) if isinstance(finding, Finding) else tuple(finding)
    first = group[0]
    path = display_path(first, root, workspace)
    line = first.line if path is not None and first.line > 0 else None
    return workflow_command(
        COMMANDS[first.level],
        clip(group_message(group), MAX_MESSAGE_CHARS),
        [
            ("file", path),
            ("line", line),
            ("endLine", line),
            ("title", clip(group_title(group), 200)),
        ],
    )


def annotation_lines(
    findings: Iterable[Finding],
    *,
    root: Path,
    workspace: Path | None = None,
    changed: frozenset[Path] = frozenset(),
    limit: int = ANNOTATION_LIMIT,
    see: str = "the job summary and the pytest output",
) -> list[str]:
    """Up to ``limit`` commands of each level, errors first and PR files first within a level,
    then one notice counting the rest. The findings of one job at one line are one annotation,
    so the cap covers as many jobs as it can."""
    ordered = order_findings(findings, root, changed)
    groups = group_findings(ordered)
    shown: list[tuple[Finding, ...]] = []
    for level in Level:
        shown.extend([group for group in groups if group[0].level is level][:limit])
    lines = [annotation(group, root, workspace) for group in shown]
    # a cross-lane finding is annotated at the code's line too (the registration a pull request
    # changes), with the same message
    lines += [
        annotation(replace(finding, path=path, line=line), root, workspace)
        for group in shown
        for finding in group
        for path, line in finding.also
    ]
    rest = len(ordered) - sum(len(group) for group in shown)
    if rest > 0:
        noun = "finding" if rest == 1 else "findings"
        lines.append(
            workflow_command(
                "notice",
                f"{rest} more jobledger {noun} not annotated here (GitHub shows at most "
                f"{limit} error and {limit} warning annotations per step); see {see} for all "
                f"{len(ordered)}.",
                [("title", f"jobledger: {rest} more {noun}")],
            )
        )
    return lines
