"""The gate cases' projects: small git repositories for the cases that compare a base with a
head (built, never fetched), and the committed ledger a case does not spell out."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from repo_files import copy_tracked

from pytest_jobledger.extract import extract_ledger
from pytest_jobledger.gate.status import empty_scan
from pytest_jobledger.ledger.store import write_ledger
from pytest_jobledger.project import Config, load_config

#: A repository the test builds must not read the machine's or the user's git configuration.
GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "case",
    "GIT_AUTHOR_EMAIL": "case@example.invalid",
    "GIT_COMMITTER_NAME": "case",
    "GIT_COMMITTER_EMAIL": "case@example.invalid",
    "GIT_AUTHOR_DATE": "2025-01-01T00:00:00+00:00",
    "GIT_COMMITTER_DATE": "2025-01-01T00:00:00+00:00",
}


def git(*args: str, cwd: Path) -> None:
    subprocess.run(
        ["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
        cwd=cwd,
        env={**os.environ, **GIT_ENV},
        check=True,
        capture_output=True,
        timeout=60,
    )


def build_repository(case: Path, work: Path, settings: dict[str, Any] | None = None) -> Path:
    """Commit ``base/`` then ``head/`` in a new repository; the folder the gate runs in."""
    settings = settings or {}
    repo = work / "repo"
    subdir = settings.get("subdir", "")
    copy_tracked(case / "base", repo / subdir)
    git("init", "-q", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "-q", "-m", "base", cwd=repo)
    shutil.rmtree(repo / subdir) if subdir else _clear(repo)
    copy_tracked(case / "head", repo / subdir, dirs_exist_ok=True)
    git("add", "-A", cwd=repo)
    author = settings.get("head_author")  # another person's commit: "Name <email>"
    git("commit", "-q", "-m", "head", *(["--author", author] if author else []), cwd=repo)
    if settings.get("shallow"):
        clone = work / "clone"
        git("clone", "-q", "--depth", "1", repo.as_uri(), str(clone), cwd=work)
        repo = clone
    return repo / subdir


def _clear(repo: Path) -> None:
    for child in repo.iterdir():
        if child.name != ".git":
            shutil.rmtree(child) if child.is_dir() else child.unlink()


def commit_fresh_ledger(root: Path, expected: dict[str, Any]) -> Config:
    """Write the fresh ledger where the project commits it, when the case has none (and is not
    about a missing one, nor an empty scan, which ``jobledger extract`` refuses to write)."""
    config = load_config(root=root)
    if expected.get("committed_ledger", True) and not config.ledger_path.exists():
        ledger = extract_ledger(config)
        if empty_scan(ledger, config) is None:
            write_ledger(config.ledger_path, ledger, root=config.root)
    return config
