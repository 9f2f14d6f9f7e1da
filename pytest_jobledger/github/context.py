"""The Actions environment the presenters read: paths from the environment, the files a pull
request changed, and the step's outputs.

Everything that reads the outside world (the event payload, git) degrades to "no information",
never to an error: annotations are a convenience, the pytest run and the job summary are the
complete record.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .. import git
from ..core.outside import append_runner_file
from ..core.trace import trace

_MAX_EVENT_BYTES = 16 * 1024 * 1024


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


def read_event(path: Path | None) -> Mapping[str, object]:
    """The event payload (``{}``: none, too large, or not JSON); a presenter reads it once."""
    if path is None:
        return {}
    trace("event-payload")
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


def base_refs(context: GitHubContext, event: Mapping[str, object] | None = None) -> list[str]:
    """The pull request's base, best first: the payload's ``pull_request.base.sha``, then
    ``origin/<GITHUB_BASE_REF>``; empty outside a pull request."""
    event = read_event(context.event_path) if event is None else event
    refs: list[str] = []
    sha = _get(event, "pull_request", "base", "sha")
    if isinstance(sha, str) and re.fullmatch(r"[0-9a-fA-F]{7,64}", sha):
        refs.append(sha)
    if context.base_ref:
        refs.append(f"origin/{context.base_ref}")
    return refs


def changed_files(
    context: GitHubContext, cwd: Path, event: Mapping[str, object] | None = None
) -> frozenset[Path]:
    """Real paths of the files the pull request (or pushed commits) changed, found offline.

    A pull request diffs its base commit (from the event payload, else ``origin/<base ref>``)
    against ``HEAD``; a push uses the payload's per-commit file lists. A shallow clone that lacks
    the base, a missing git or a foreign payload give an empty set: the order is then by file.
    """
    repository = _repository(cwd)
    base_dir = repository.work_tree if repository else (context.workspace or cwd)
    event = read_event(context.event_path) if event is None else event
    names: list[str] = []
    if isinstance(event.get("pull_request"), dict) and repository is not None:
        for ref in base_refs(context, event):
            trace("git-diff-files")
            found = repository.diff(["--name-only", "-z", f"{ref}...HEAD", "--"])
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


def _repository(root: Path) -> git.Repository | None:
    """The repository of the project at ``root`` (located from the root, never from a folder of
    the tree), or ``None``."""
    try:
        return git.locate(root)
    except git.GitUnavailable:
        return None


_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", re.MULTILINE)


def changed_lines(
    context: GitHubContext,
    path: Path,
    root: Path | None = None,
    event: Mapping[str, object] | None = None,
) -> frozenset[int] | None:
    """The lines of ``path`` a pull request added or changed (a deletion marks the lines around
    it; an added blank line marks nothing), or ``None`` when that cannot be told offline (not a
    pull request, no base commit). The repository is located from the project ``root`` (else
    the workspace), never from the file's folder."""
    event = read_event(context.event_path) if event is None else event
    if not isinstance(event.get("pull_request"), dict):
        return None
    repository = _repository(root or context.workspace or path.parent)
    if repository is None:
        return None
    try:
        inside = repository.inside(path)
    except git.GitUnavailable:
        return None
    for ref in base_refs(context, event):
        trace("git-diff-lines")
        found = repository.diff(["-U0", "--no-color", f"{ref}...HEAD", "--", inside])
        if found is not None:
            return _hunk_lines(found)
    return None


def changed_lines_by_file(
    context: GitHubContext, root: Path, event: Mapping[str, object] | None = None
) -> dict[Path, frozenset[int]] | None:
    """The lines a pull request added or changed in each file (real paths), from one diff of
    the whole tree; ``None`` when that cannot be told offline (not a pull request, no base
    commit, a file name git had to quote)."""
    event = read_event(context.event_path) if event is None else event
    if not isinstance(event.get("pull_request"), dict):
        return None
    repository = _repository(root)
    if repository is None:
        return None
    for ref in base_refs(context, event):
        trace("git-diff-all-lines")
        found = repository.diff(["-U0", "--no-color", "--no-renames", f"{ref}...HEAD", "--"])
        if found is None:
            continue
        files: dict[Path, list[str]] = {}
        current: list[str] | None = None
        for text in found:
            if text.startswith("+++ "):
                name = text[4:]
                if name.startswith('"'):
                    return None  # a quoted name: which file it is cannot be told for sure
                current = None
                if name.startswith("b/"):
                    current = files.setdefault((repository.work_tree / name[2:]).resolve(), [])
            elif current is not None:
                current.append(text)
        return {path: _hunk_lines(lines) for path, lines in files.items()}
    return None


def _hunk_lines(diff: list[str]) -> frozenset[int]:
    lines: set[int] = set()
    number = 0
    for text in diff:
        header = _HUNK.match(text)
        if header is not None:
            number, count = int(header.group(1)), int(header.group(2) or "1")
            if count == 0:  # only deletions: the lines around them changed
                lines.update((number, number + 1))
                number += 1
        elif text.startswith("+") and not text.startswith("+++"):
            if text[1:].strip():
                lines.add(number)
            number += 1
    return frozenset(lines)


def write_outputs(path: Path, values: Mapping[str, str | int]) -> None:
    """Append ``name=value`` lines to ``$GITHUB_OUTPUT`` (values here are single-line)."""
    lines: list[str] = []
    for name, value in values.items():
        text = str(value)
        if "\n" in text or "\r" in text:
            raise ValueError(f"output {name} must be a single line")
        lines.append(f"{name}={text}\n")
    append_runner_file(path, "".join(lines))
