"""The release workflow, dry-run, in a real local Actions runner (act), offline.

The repository's own ``.github/workflows/release.yml`` runs on a copy of this repository: its
build job makes the sdist and the wheel with the runner's ``python3`` (pip reads a wheelhouse
repacked from this environment, see :mod:`._act`), checks them with ``twine check --strict`` and
``.github/release_check.py``, and hands them to ``actions/upload-artifact``. GitHub's artifact
store and PyPI are not here, so the three actions that talk to them are stand-ins given to act
with ``--local-repository``: the upload copies the files to a folder the test reads, and the
download and the publisher write a marker that must never appear in a dry run (or after a failed
check).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import pytest

from . import _act, _wheelhouse

pytestmark = [_act.needs_act, pytest.mark.act]

REPO = Path(__file__).parents[2]
VERSION = "0.1.0.dev0"

UPLOAD = """\
name: "upload-artifact, a stand-in that keeps the files where the test reads them"
inputs:
  name: {required: true}
  path: {required: true}
  if-no-files-found: {required: false}
runs:
  using: composite
  steps:
    - shell: bash
      env: {NAME: "${{ inputs.name }}", FROM: "${{ inputs.path }}"}
      run: mkdir -p "$JOBLEDGER_ARTIFACTS/$NAME" && cp -R "$FROM"/. "$JOBLEDGER_ARTIFACTS/$NAME/"
"""

REACHED = """\
name: "{name}, a stand-in that a dry run must never reach"
inputs:
  name: {{required: false}}
  path: {{required: false}}
  attestations: {{required: false}}
runs:
  using: composite
  steps:
    - shell: bash
      run: mkdir -p "$JOBLEDGER_ARTIFACTS" && touch "$JOBLEDGER_ARTIFACTS/{name}-ran"
"""

STAND_INS = {
    "actions/upload-artifact@v4": UPLOAD,
    "actions/download-artifact@v4": REACHED.format(name="download-artifact"),
    "pypa/gh-action-pypi-publish@release/v1": REACHED.format(name="pypi-publish"),
}


def tracked_copy(target: Path) -> Path:
    """This repository's tracked files (as they are in the work tree), committed afresh."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, check=True, capture_output=True
    ).stdout.decode("utf-8")
    for name in filter(None, listed.split("\0")):
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    _act.commit(target, "release")
    return target


def release(
    base: Path, wheels: Path, event: str, extra: list[str]
) -> tuple[list[dict[str, Any]], Path]:
    repo = tracked_copy(base / "repo")
    artifacts = base / "artifacts"
    flags = ["-W", ".github/workflows/release.yml", *extra]
    for action, text in STAND_INS.items():
        folder = base / "stand-ins" / action.replace("/", "_").replace("@", "_")
        folder.mkdir(parents=True)
        (folder / "action.yml").write_text(text, encoding="utf-8")
        flags += ["--local-repository", f"{action}={folder}"]
    env = {**_act.pip_env(wheels), "JOBLEDGER_ARTIFACTS": str(artifacts)}
    for name, value in env.items():
        flags += ["--env", f"{name}={value}"]
    return _act.run(repo, base, flags, event=event), artifacts


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("release-wheels")
    return _wheelhouse.build(folder, extra=("build", "twine", "mkdocs"))


@pytest.fixture(scope="module")
def dry_run(
    tmp_path_factory: pytest.TempPathFactory, wheels: Path
) -> tuple[list[dict[str, Any]], Path]:
    base = tmp_path_factory.mktemp("release-dry-run")
    return release(base, wheels, "workflow_dispatch", ["--input", "dry-run=true"])


def test_a_dry_run_builds_checks_and_publishes_nothing(
    dry_run: tuple[list[dict[str, Any]], Path],
) -> None:
    events, artifacts = dry_run
    assert _act.job_results(events) == ["success"], _act.printed(events)[-20:]
    dist = sorted(path.name for path in (artifacts / "dist").iterdir())
    stem = f"pytest_jobledger-{VERSION}"
    assert dist == [f"{stem}-py3-none-any.whl", f"{stem}.tar.gz"]
    printed = "".join(_act.printed(events))
    assert "PASSED" in printed
    assert "release check: 2 distributions are ready" in printed
    assert "documentation site built strictly: " in printed
    assert not list(artifacts.glob("*-ran")), "a dry run reached the publish job"


def test_the_released_distributions_hold_what_users_need_and_no_half_test_suite(
    dry_run: tuple[list[dict[str, Any]], Path],
) -> None:
    _, artifacts = dry_run
    stem = f"pytest_jobledger-{VERSION}"
    with zipfile.ZipFile(artifacts / "dist" / f"{stem}-py3-none-any.whl") as wheel:
        names = set(wheel.namelist())
        metadata = wheel.read(f"{stem}.dist-info/METADATA").decode("utf-8")
        entry_points = wheel.read(f"{stem}.dist-info/entry_points.txt").decode("utf-8")
    assert "pytest_jobledger/py.typed" in names
    assert "pytest_jobledger/schemas/overlay.schema.json" in names
    assert "Classifier: Typing :: Typed" in metadata
    assert "Project-URL: Changelog, " in metadata
    assert "jobledger = pytest_jobledger.plugin" in entry_points
    with tarfile.open(artifacts / "dist" / f"{stem}.tar.gz") as sdist:
        members = {member.name.split("/", 1)[-1] for member in sdist.getmembers()}
    assert {"README.md", "LICENSE", "CHANGELOG.md", "pyproject.toml"} <= members
    assert not [name for name in members if name.startswith(("tests/", "examples/"))]


def test_a_tag_that_is_not_the_version_fails_before_publishing(
    tmp_path_factory: pytest.TempPathFactory, wheels: Path
) -> None:
    base = tmp_path_factory.mktemp("release-wrong-tag")
    event = base / "event.json"
    event.write_text(json.dumps({"ref": "refs/tags/v9.9.9"}), encoding="utf-8")
    events, artifacts = release(base, wheels, "push", ["-e", str(event)])
    assert "failure" in _act.job_results(events)
    printed = "".join(_act.printed(events))
    assert f"the tag v9.9.9 does not match pyproject.toml's version {VERSION}" in printed
    assert not list(artifacts.glob("*-ran")), "a failed check reached the publish job"
