"""A release points the action's major tag at the released commit plus its wheel in ``dist/``, so
``uses: <owner>/pytest-jobledger@v1`` installs that wheel and builds nothing.

``.github/action_wheel.sh`` is run as the release workflow runs it, on a scratch repository.
"""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml
from helpers import GIT_ENV, git

from pytest_jobledger.github.install_key import install_key

from ._act import copy_action

REPO = Path(__file__).parents[2]
SCRIPT = REPO / ".github" / "action_wheel.sh"
WHEEL = "pytest_jobledger-1.2.0-py3-none-any.whl"


@pytest.fixture
def released(tmp_path: Path) -> tuple[Path, str]:
    """A repository whose head is the released commit (the action's files), and its sha."""
    repo = copy_action(tmp_path / "repo")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "release 1.2.0")
    return repo, git(repo, "rev-parse", "HEAD")


def action_wheel(repo: Path, wheel: Path, sha: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT), str(wheel), sha],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_tagged_commit_is_the_release_plus_its_wheel(
    released: tuple[Path, str], tmp_path: Path
) -> None:
    repo, sha = released
    wheel = tmp_path / WHEEL
    wheel.write_bytes(b"PK\x03\x04 the wheel PyPI got")
    done = action_wheel(repo, wheel, sha)
    assert done.returncode == 0, done.stderr
    commit = done.stdout.strip()
    assert git(repo, "rev-parse", f"{commit}^") == sha
    assert git(repo, "diff", "--name-status", sha, commit) == f"A\tdist/{WHEEL}"
    shown = subprocess.run(
        ["git", "show", f"{commit}:dist/{WHEEL}"], cwd=repo, capture_output=True, check=True
    )
    assert shown.stdout == wheel.read_bytes()
    # The checkout, its index and its branch are as they were.
    assert git(repo, "rev-parse", "HEAD") == sha
    assert git(repo, "status", "--porcelain") == ""


def test_the_action_at_that_commit_installs_the_wheel(
    released: tuple[Path, str], tmp_path: Path
) -> None:
    """action.yml's glob takes the wheel, and the venv's key changes with it (a new venv)."""
    repo, sha = released
    wheel = tmp_path / WHEEL
    wheel.write_bytes(b"PK")
    commit = action_wheel(repo, wheel, sha).stdout.strip()
    before = install_key(repo)
    git(repo, "checkout", "-q", commit)
    [shipped] = (repo / "dist").iterdir()
    install = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))["runs"]["steps"][0]
    [glob] = re.findall(r'"\$JOBLEDGER_ACTION_PATH"/(dist/\S+\.whl)', install["run"])
    assert fnmatch.fnmatch(f"dist/{shipped.name}", glob)
    assert install_key(repo) != before


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("pytest_jobledger-1.2.0.tar.gz", "is not the tool's pure-Python wheel"),
        ("other-1.2.0-py3-none-any.whl", "is not the tool's pure-Python wheel"),
        (WHEEL, "no file"),
    ],
)
def test_anything_but_the_tools_wheel_is_refused(
    released: tuple[Path, str], tmp_path: Path, name: str, problem: str
) -> None:
    repo, sha = released
    if problem != "no file":
        (tmp_path / name).write_bytes(b"x")
    done = action_wheel(repo, tmp_path / name, sha)
    assert done.returncode == 2
    assert problem in done.stderr
    assert done.stdout == ""


def test_a_commit_that_already_has_a_dist_folder_is_refused(
    released: tuple[Path, str], tmp_path: Path
) -> None:
    repo, _ = released
    (repo / "dist").mkdir()
    (repo / "dist" / "old.whl").write_bytes(b"x")
    git(repo, "add", "-f", "dist")
    git(repo, "commit", "-q", "-m", "dist")
    (tmp_path / WHEEL).write_bytes(b"PK")
    done = action_wheel(repo, tmp_path / WHEEL, git(repo, "rev-parse", "HEAD"))
    assert done.returncode == 2
    assert "already has a dist/ folder" in done.stderr


def test_the_release_moves_the_major_tag_to_that_commit() -> None:
    workflow = yaml.safe_load((REPO / ".github" / "workflows" / "release.yml").read_text())
    job = workflow["jobs"]["move-major-tag"]
    assert job["needs"] == "publish"
    download = next(step for step in job["steps"] if "download-artifact" in step.get("uses", ""))
    assert download["with"]["name"] == "dist"
    run = next(step["run"] for step in job["steps"] if "action_wheel.sh" in step.get("run", ""))
    assert 'commit="$(bash .github/action_wheel.sh "$wheel" "$SHA")"' in run
    assert 'git tag --force "$major" "$commit"' in run
