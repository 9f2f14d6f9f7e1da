"""The action's private venv is reused only when it is provably the one this action built for this
interpreter: same action files, same interpreter, this user's, outside the checkout.

``install_key.py`` is run as the install step runs it (by its path, ``python -I``, before the tool
is installed); the venvs here are folders shaped like the install step leaves them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest
import yaml

from pytest_jobledger.github import install_key
from pytest_jobledger.github.install_key import MARKER, plan, reusable, venv_folder

from ._act import copy_action

SCRIPT = Path(install_key.__file__)
REPO = Path(__file__).parents[2]


@pytest.fixture
def action(tmp_path: Path) -> Path:
    return copy_action(tmp_path / "action")


def step_plan(action: Path, environ: Mapping[str, str], python: str = sys.executable) -> list[str]:
    """The four lines the install step reads, from the script run as the step runs it."""
    done = subprocess.run(
        [python, "-I", str(SCRIPT), str(action)],
        env={**environ, "PATH": os.environ.get("PATH", "")},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.split("\n")[:4]


def self_hosted(tmp_path: Path) -> dict[str, str]:
    """A self-hosted runner's environment, its tool cache folder made as the install step does."""
    (tmp_path / "tools" / "pytest-jobledger").mkdir(parents=True, exist_ok=True)
    return {"RUNNER_ENVIRONMENT": "self-hosted", "RUNNER_TOOL_CACHE": str(tmp_path / "tools")}


def built(venv: Path, key: str) -> Path:
    """What a finished install leaves: a venv (its ``pyvenv.cfg``) and the marker with its key."""
    venv.mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (venv / MARKER).write_text(f"{key}\n")
    for path in (venv, venv / "pyvenv.cfg", venv / MARKER):
        path.chmod(path.stat().st_mode & ~0o022)
    return venv


def test_a_self_hosted_runner_keeps_the_venv_in_its_tool_cache(
    action: Path, tmp_path: Path
) -> None:
    tools = tmp_path / "runner" / "tool_cache"
    (tools / "pytest-jobledger").mkdir(parents=True)  # the install step makes it (act does not)
    environ = {"RUNNER_ENVIRONMENT": "self-hosted", "RUNNER_TOOL_CACHE": str(tools)}
    venv, state, key, _ = step_plan(action, environ)
    assert Path(venv) == tools / "pytest-jobledger" / f"venv-{key}"
    assert state == "build"


def test_the_install_step_makes_the_tool_cache_folder_a_runner_only_names() -> None:
    """act, like a fresh runner, names a tool cache it has not made yet."""
    action = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
    script = action["runs"]["steps"][0]["run"]
    made = script.index('mkdir -p "$RUNNER_TOOL_CACHE/pytest-jobledger"')
    assert made < script.index('plan="$(')


def test_a_hosted_runner_keeps_the_venv_in_the_jobs_temporary_folder(
    action: Path, tmp_path: Path
) -> None:
    environ = {
        "RUNNER_ENVIRONMENT": "github-hosted",
        "RUNNER_TOOL_CACHE": str(tmp_path / "tools"),
        "RUNNER_TEMP": str(tmp_path / "temp"),
    }
    venv, _, key, _ = step_plan(action, environ)
    assert Path(venv) == tmp_path / "temp" / f"jobledger-venv-{key}"
    assert not (tmp_path / "tools").exists()


def test_the_venv_an_install_finished_is_reused(action: Path, tmp_path: Path) -> None:
    environ = self_hosted(tmp_path)
    venv, state, key, _ = step_plan(action, environ)
    assert state == "build"
    built(Path(venv), key)
    assert step_plan(action, environ)[:3] == [venv, "reuse", key]


def test_changed_action_files_make_a_new_venv(action: Path, tmp_path: Path) -> None:
    environ = self_hosted(tmp_path)
    venv, _, key, _ = step_plan(action, environ)
    built(Path(venv), key)
    module = action / "pytest_jobledger" / "github" / "action.py"
    module.write_text(module.read_text(encoding="utf-8") + "\n# another release\n")
    other, state, other_key, _ = step_plan(action, environ)
    assert (other_key, state) != (key, "reuse")
    assert other != venv


def test_a_wheel_a_release_ships_makes_a_new_venv(action: Path, tmp_path: Path) -> None:
    environ = {"RUNNER_TEMP": str(tmp_path / "temp")}
    key = step_plan(action, environ)[2]
    (action / "dist").mkdir()
    (action / "dist" / "pytest_jobledger-1.0.0-py3-none-any.whl").write_bytes(b"PK")
    assert step_plan(action, environ)[2] != key


def test_compiled_files_beside_the_sources_keep_the_key(action: Path, tmp_path: Path) -> None:
    environ = {"RUNNER_TEMP": str(tmp_path / "temp")}
    key = step_plan(action, environ)[2]
    cache = action / "pytest_jobledger" / "__pycache__"
    cache.mkdir()
    (cache / "cli.cpython-311.pyc").write_bytes(b"\0")
    assert step_plan(action, environ)[2] == key


#: The interpreter this venv was made from (another path, so another key).
BASE_PYTHON: str = getattr(sys, "_base_executable", sys.executable)


@pytest.mark.skipif(
    sys.executable == BASE_PYTHON,
    reason="needs a second interpreter: the tests run in a venv in CI",
)
def test_another_interpreter_makes_a_new_venv(action: Path, tmp_path: Path) -> None:
    environ = self_hosted(tmp_path)
    venv, _, key, _ = step_plan(action, environ)
    built(Path(venv), key)
    other = step_plan(action, environ, python=BASE_PYTHON)
    assert other[1:3] != ["reuse", key]
    assert other[0] != venv


@pytest.mark.parametrize(
    "spoil",
    [
        pytest.param(lambda venv: (venv / MARKER).write_text("0" * 24 + "\n"), id="other-key"),
        pytest.param(lambda venv: (venv / MARKER).unlink(), id="unfinished-install"),
        pytest.param(lambda venv: venv.chmod(0o777), id="anyone-may-write-it"),
        pytest.param(lambda venv: (venv / MARKER).chmod(0o666), id="anyone-may-write-the-marker"),
        pytest.param(lambda venv: (venv / "pyvenv.cfg").unlink(), id="no-venv"),
    ],
)
def test_a_venv_this_action_cannot_vouch_for_is_rebuilt(tmp_path: Path, spoil: object) -> None:
    venv = built(tmp_path / "venv-k", "k" * 24)
    assert reusable(venv, "k" * 24, {})
    assert callable(spoil)
    spoil(venv)
    assert not reusable(venv, "k" * 24, {})


def test_a_linked_marker_is_not_this_actions(tmp_path: Path) -> None:
    venv = built(tmp_path / "venv-k", "k" * 24)
    elsewhere = tmp_path / "elsewhere"
    shutil.move(venv / MARKER, elsewhere)
    (venv / MARKER).symlink_to(elsewhere)
    assert not reusable(venv, "k" * 24, {})


def test_a_venv_inside_the_checkout_is_never_reused(action: Path, tmp_path: Path) -> None:
    """A temporary folder inside the workspace: the pull request could carry a ready-made venv
    with the right name and marker."""
    checkout = tmp_path / "checkout"
    environ = {"RUNNER_TEMP": str(checkout / "tmp"), "GITHUB_WORKSPACE": str(checkout)}
    venv, _, key, _ = plan(action, environ)
    built(Path(venv), key)
    assert Path(venv).is_relative_to(checkout)
    assert plan(action, environ)[1] == "build"
    assert plan(action, {**environ, "GITHUB_WORKSPACE": str(tmp_path / "other")})[1] == "reuse"


def test_an_unwritable_tool_cache_falls_back_to_the_temporary_folder(tmp_path: Path) -> None:
    tools = tmp_path / "tools"
    tools.write_text("a file, not a folder")
    environ = {
        "RUNNER_ENVIRONMENT": "self-hosted",
        "RUNNER_TOOL_CACHE": str(tools),
        "RUNNER_TEMP": str(tmp_path / "temp"),
    }
    assert venv_folder(environ, "k") == tmp_path / "temp" / "jobledger-venv-k"


def test_the_pip_that_fills_a_new_venv_is_this_interpreters_bundled_wheel(
    action: Path, tmp_path: Path
) -> None:
    pip = step_plan(action, {"RUNNER_TEMP": str(tmp_path)})[3]
    if pip:
        assert Path(pip).name.startswith("pip-")
        assert Path(pip).suffix == ".whl"
        assert Path(pip).is_file()
