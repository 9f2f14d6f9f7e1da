"""The one git runner: where it finds the repository, and what of the caller's world reaches git
(nothing but ``PATH``)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from pytest_jobledger import git

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _git(cwd: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=cwd,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    top = tmp_path / "top"
    (top / "proj").mkdir(parents=True)
    (top / "proj" / "a.txt").write_text("one\n")
    _git(top, "init", "-q", "-b", "main")
    _git(top, "add", "-A")
    _git(top, "commit", "-q", "-m", "one")
    return top


def test_the_repository_is_found_from_the_project_root_upwards(repo: Path) -> None:
    found = git.locate(repo / "proj")
    assert found.git_dir == (repo / ".git").resolve()
    assert found.work_tree == repo.resolve()
    assert git.show("HEAD", repo / "proj" / "a.txt", repo / "proj", limit=100) == b"one\n"


def test_a_folder_laid_out_as_a_git_directory_is_not_a_repository(repo: Path) -> None:
    """The project's own folder holding HEAD, config, objects/ and refs/ is not taken for a bare
    repository: the search looks for ``.git`` only."""
    proj = repo / "proj"
    (proj / "objects").mkdir()
    (proj / "refs").mkdir()
    (proj / "HEAD").write_text("ref: refs/heads/main\n")
    (proj / "config").write_text("[core]\n\tbare = true\n")
    assert git.locate(proj).git_dir == (repo / ".git").resolve()
    assert len(git.resolve_commit("HEAD", proj)) == 40


def test_a_worktree_gitfile_is_followed(repo: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    _git(repo, "worktree", "add", "-q", str(other))
    found = git.locate(other / "proj")
    assert found.work_tree == other.resolve()
    assert found.git_dir == (repo / ".git" / "worktrees" / "other").resolve()
    assert git.show("HEAD", other / "proj" / "a.txt", other, limit=100) == b"one\n"


def test_a_gitfile_that_is_not_one_is_a_reason(tmp_path: Path) -> None:
    (tmp_path / ".git").write_text("not a gitfile\n")
    with pytest.raises(git.GitUnavailable, match="neither a git folder nor a gitfile"):
        git.locate(tmp_path)


def test_the_search_stops_below_a_ceiling(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(repo))
    with pytest.raises(git.GitUnavailable, match="not inside a git repository"):
        git.locate(repo / "proj")


def test_a_git_on_a_relative_path_entry_is_never_found(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``PATH=.:...`` from the project's folder would find a ``git`` the checkout carries."""
    fake = repo / "proj" / "git"
    fake.write_text("#!/bin/sh\ntouch pwned\n")
    fake.chmod(0o755)
    monkeypatch.chdir(repo / "proj")
    monkeypatch.setenv("PATH", os.pathsep.join([".", "proj", os.environ["PATH"]]))
    assert git.program() != str(fake)
    assert not Path(git.program()).is_relative_to(repo)
    git.resolve_commit("HEAD", repo)
    assert not (repo / "proj" / "pwned").exists()


def test_no_variable_of_the_callers_environment_reaches_git(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GIT_DIR, GIT_CONFIG_* and GIT_EXTERNAL_DIFF in the environment, and a global config
    naming programs, change nothing: git sees PATH, a scratch HOME and the fixed settings."""
    (repo / "proj" / "a.txt").write_text("two\n")
    _git(repo, "commit", "-q", "-am", "two")
    marker = tmp_path / "marker"
    evil = tmp_path / "evil.sh"
    evil.write_text(f'#!/bin/sh\ntouch "{marker}"\n')
    evil.chmod(0o755)
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text(f"[core]\n\tfsmonitor = {evil}\n[diff]\n\texternal = {evil}\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "nowhere"))
    monkeypatch.setenv("GIT_EXTERNAL_DIFF", str(evil))
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "core.fsmonitor")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", str(evil))
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", f"'diff.external'='{evil}'")
    found = git.locate(repo)
    assert found.diff(["-U0", "HEAD~1...HEAD", "--", "proj/a.txt"]) is not None
    assert found.lines(["ls-files", "-z"]) == ["proj/a.txt"]
    assert not marker.exists()
    env = git.environment(tmp_path)
    assert not {name for name in env if name.startswith("GIT_")} - {
        "GIT_CONFIG_NOSYSTEM",
        "GIT_CONFIG_GLOBAL",
        "GIT_ATTR_NOSYSTEM",
        "GIT_NO_REPLACE_OBJECTS",
        "GIT_TERMINAL_PROMPT",
        "GIT_OPTIONAL_LOCKS",
        "GIT_PAGER",
    }
    assert env["HOME"] == str(tmp_path)
    assert git.environment(tmp_path, {"PATH": os.pathsep.join([".", "bin", "/usr/bin"])}) == {
        **env,
        "PATH": "/usr/bin",
    }


def test_the_repositorys_own_program_settings_are_overridden(repo: Path, tmp_path: Path) -> None:
    """Even the repository's .git/config (written by a clone, not a commit) runs nothing."""
    marker = tmp_path / "marker"
    evil = tmp_path / "evil.sh"
    evil.write_text(f'#!/bin/sh\ntouch "{marker}-$(basename "$0")"\ncat >/dev/null\n')
    evil.chmod(0o755)
    for key in ("core.fsmonitor", "diff.external", "diff.evil.textconv", "filter.evil.clean"):
        _git(repo, "config", key, str(evil))
    _git(repo, "config", "core.hooksPath", str(tmp_path))
    (repo / ".gitattributes").write_text("* diff=evil filter=evil\n")
    (repo / "proj" / "a.txt").write_text("two\n")
    _git(repo, "-c", "filter.evil.clean=cat", "add", "-A")
    _git(repo, "-c", "core.fsmonitor=false", "commit", "-q", "--no-verify", "-m", "two")
    before = sorted(tmp_path.iterdir())
    found = git.locate(repo)
    assert found.diff(["-U0", "HEAD~1...HEAD", "--", "proj/a.txt"]) is not None
    assert found.lines(["ls-files", "-z"]) is not None
    assert git.show("HEAD", repo / "proj" / "a.txt", repo, limit=100) == b"two\n"
    assert sorted(tmp_path.iterdir()) == before
