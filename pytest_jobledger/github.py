"""GitHub workflow commands for findings: escaping, paths, PR-first order and the per-step cap.

Pure functions over :class:`~pytest_jobledger.findings.Finding`, shared by the pytest plugin
(:mod:`pytest_jobledger.github_plugin`) and ``jobledger check --format github``. Everything that
reads the outside world (the event payload, git) degrades to "no information", never to an error:
annotations are a convenience, the pytest run and the job summary are the complete record.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .findings import Finding

#: GitHub shows at most 10 error annotations per step (and 50 per job); the rest are dropped
#: silently, so we emit up to this many and then say how many more there are.
ANNOTATION_LIMIT = 10

#: An annotation is a pointer, not the report; very long messages are cut to keep the log usable.
MAX_MESSAGE_CHARS = 4000

_GIT_TIMEOUT_S = 10.0
_MAX_EVENT_BYTES = 16 * 1024 * 1024


def escape_data(text: str) -> str:
    """Escape a command's message so that it stays one line and ``%`` survives the round trip."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


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


@dataclass(frozen=True)
class GitHubContext:
    """The parts of the Actions environment the presenters use; all optional outside Actions."""

    workspace: Path | None = None
    event_path: Path | None = None
    base_ref: str | None = None
    step_summary: Path | None = None
    output: Path | None = None

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> GitHubContext:
        env = os.environ if environ is None else environ

        def path(name: str) -> Path | None:
            value = env.get(name, "")
            return Path(value) if value else None

        return cls(
            workspace=path("GITHUB_WORKSPACE"),
            event_path=path("GITHUB_EVENT_PATH"),
            base_ref=env.get("GITHUB_BASE_REF") or None,
            step_summary=path("GITHUB_STEP_SUMMARY"),
            output=path("GITHUB_OUTPUT"),
        )


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


def _clip(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def annotation(finding: Finding, root: Path, workspace: Path | None) -> str:
    """One ``::error`` command pointing at the exact line of the finding."""
    path = display_path(finding, root, workspace)
    line = finding.line if path is not None and finding.line > 0 else None
    return workflow_command(
        "error",
        _clip(finding.message),
        [
            ("file", path),
            ("line", line),
            ("endLine", line),
            ("title", _clip(title(finding), 200)),
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
    """Up to ``limit`` error commands, PR files first, then one notice counting the rest."""
    ordered = order_findings(findings, root, changed)
    lines = [annotation(finding, root, workspace) for finding in ordered[:limit]]
    rest = len(ordered) - len(lines)
    if rest > 0:
        noun = "finding" if rest == 1 else "findings"
        lines.append(
            workflow_command(
                "notice",
                f"{rest} more jobledger {noun} not annotated here (GitHub shows at most "
                f"{limit} error annotations per step); see {see} for all {len(ordered)}.",
                [("title", f"jobledger: {rest} more {noun}")],
            )
        )
    return lines


def _git(args: Sequence[str], cwd: Path) -> list[str] | None:
    """Run a read-only git command; ``None`` on any failure (no git, no repo, missing commit)."""
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0"}
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=cwd,
            env=env,
            capture_output=True,
            timeout=_GIT_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    text = done.stdout.decode("utf-8", "surrogateescape")
    return [part for part in text.split("\0" if "\0" in text else "\n") if part]


def _event(path: Path | None) -> Mapping[str, object]:
    if path is None:
        return {}
    try:
        if path.stat().st_size > _MAX_EVENT_BYTES:
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _get(data: object, *keys: str) -> object:
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def changed_files(context: GitHubContext, cwd: Path) -> frozenset[Path]:
    """Real paths of the files the pull request (or pushed commits) changed, found offline.

    A pull request diffs its base commit (from the event payload, else ``origin/<base ref>``)
    against ``HEAD``; a push uses the payload's per-commit file lists. A shallow clone that lacks
    the base, a missing git or a foreign payload give an empty set: the order is then by file.
    """
    top = _git(["rev-parse", "--show-toplevel"], cwd)
    base_dir = Path(top[0]) if top else (context.workspace or cwd)
    event = _event(context.event_path)
    names: list[str] = []
    if isinstance(event.get("pull_request"), dict):
        refs: list[str] = []
        sha = _get(event, "pull_request", "base", "sha")
        if isinstance(sha, str) and re.fullmatch(r"[0-9a-fA-F]{7,64}", sha):
            refs.append(sha)
        if context.base_ref:
            refs.append(f"origin/{context.base_ref}")
        for ref in refs:
            found = _git(["diff", "--name-only", "-z", f"{ref}...HEAD", "--"], base_dir)
            if found is not None:
                names = found
                break
    else:
        commits = event.get("commits")
        for commit in commits if isinstance(commits, list) else []:
            for field in ("added", "modified"):
                files = _get(commit, field)
                if isinstance(files, list):
                    names.extend(name for name in files if isinstance(name, str))
    return frozenset((base_dir / name).resolve() for name in names)


def write_outputs(path: Path, values: Mapping[str, str | int]) -> None:
    """Append ``name=value`` lines to ``$GITHUB_OUTPUT`` (values here are single-line)."""
    with path.open("a", encoding="utf-8") as handle:
        for name, value in values.items():
            text = str(value)
            if "\n" in text or "\r" in text:
                raise ValueError(f"output {name} must be a single line")
            handle.write(f"{name}={text}\n")
