"""Which files the pull request changed: from the event payload and git, offline, never failing."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import git

from pytest_jobledger.github.context import GitHubContext, changed_files


def repo_with_a_pull_request(tmp_path: Path) -> tuple[Path, str]:
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "old.py").write_text("x = 1\n")
    (repo / "src" / "touched.py").write_text("x = 1\n")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "base")
    base = git(repo, "rev-parse", "HEAD")
    (repo / "src" / "touched.py").write_text("x = 2\n")
    (repo / "src" / "new.py").write_text("y = 1\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "change")
    return repo, base


def event(tmp_path: Path, payload: object) -> Path:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(payload))
    return path


def test_a_pull_request_diffs_its_base_commit(tmp_path: Path) -> None:
    repo, base = repo_with_a_pull_request(tmp_path)
    payload = {"pull_request": {"base": {"sha": base}}}
    context = GitHubContext(workspace=repo, event_path=event(tmp_path, payload))
    found = changed_files(context, repo / "src")
    assert found == {(repo / "src" / "touched.py").resolve(), (repo / "src" / "new.py").resolve()}


def test_a_base_missing_from_a_shallow_clone_gives_no_order_not_an_error(tmp_path: Path) -> None:
    repo, _ = repo_with_a_pull_request(tmp_path)
    payload = {"pull_request": {"base": {"sha": "0" * 40}}}
    context = GitHubContext(workspace=repo, event_path=event(tmp_path, payload), base_ref="main")
    assert changed_files(context, repo) == frozenset()


def test_a_push_uses_the_files_listed_per_commit(tmp_path: Path) -> None:
    payload = {"commits": [{"added": ["a.py"], "modified": ["b/c.py"], "removed": ["gone.py"]}]}
    context = GitHubContext(workspace=tmp_path, event_path=event(tmp_path, payload))
    assert changed_files(context, tmp_path) == {
        (tmp_path / "a.py").resolve(),
        (tmp_path / "b" / "c.py").resolve(),
    }


def test_a_missing_or_broken_payload_gives_an_empty_set(tmp_path: Path) -> None:
    broken = tmp_path / "event.json"
    broken.write_text("{not json")
    assert changed_files(GitHubContext(event_path=broken), tmp_path) == frozenset()
    assert changed_files(GitHubContext(event_path=tmp_path / "none"), tmp_path) == frozenset()
    assert changed_files(GitHubContext(), tmp_path) == frozenset()
