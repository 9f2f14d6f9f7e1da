"""Each way a pull request could make the action run its code, one at a time, through the gate
step exactly as action.yml runs it (its ``run`` script in bash, with this environment's Python
as the action's venv). act runs them all together, install step included (test_act_hostile.py).

Every planted file touches a marker when it runs (see :mod:`._hostile`); each test asserts that
none did and that the gate still judged the overlay: its one finding (an orphan entry the test
adds) reaches the SARIF file and fails the step.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml
from repo_files import copy_tracked

from . import _hostile

REPO = Path(__file__).parents[2]
EXAMPLE = REPO / "examples" / "celery"
BASH = shutil.which("bash")

pytestmark = pytest.mark.skipif(BASH is None, reason="action.yml's steps run in bash")

#: Modules pytest imports after it has read ``pythonpath``: only the ini can put them in reach.
LATE: tuple[str, ...] = ("pdb.py", "gzip.py", "getpass.py")


def gate_script() -> str:
    action = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
    (step,) = [step for step in action["runs"]["steps"] if step.get("id") == "gate"]
    script: str = step["run"]
    return script


@dataclass
class Project:
    root: Path
    markers: Path
    env: dict[str, str] = field(default_factory=dict)
    args: str = ""
    findings: int = 1

    def gate(self) -> subprocess.CompletedProcess[str]:
        """The action's gate step in this project (``working-directory`` = the project)."""
        assert BASH is not None
        env = {
            name: value
            for name, value in os.environ.items()
            if not name.startswith(("PYTHON", "PYTEST_", "GITHUB_", "JOBLEDGER_"))
        }
        env.update(
            JOBLEDGER_VENV_PYTHON=sys.executable,
            JOBLEDGER_PYTEST_ARGS=self.args,
            JOBLEDGER_SARIF_FILE=str(self.markers.parent / "gate.sarif"),
            RUNNER_TEMP=str(self.markers.parent),
            **self.env,
        )
        return subprocess.run(
            [BASH, "--noprofile", "--norc", "-eo", "pipefail", "-c", gate_script()],
            cwd=self.root,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    def assert_contained(self) -> subprocess.CompletedProcess[str]:
        done = self.gate()
        output = done.stdout + done.stderr
        assert _hostile.fired(self.markers) == [], output
        sarif = self.markers.parent / "gate.sarif"
        assert sarif.is_file(), output
        results = json.loads(sarif.read_text(encoding="utf-8"))["runs"][0]["results"]
        assert len(results) == self.findings, output
        assert done.returncode == 1, output
        return done


@pytest.fixture
def project(tmp_path: Path) -> Project:
    """The Celery example with one orphan entry (the gate's one finding), and a marker folder."""
    root = tmp_path / "pr"
    copy_tracked(EXAMPLE, root)
    overlay = root / "overlays" / "job_policy.yaml"
    overlay.write_text(overlay.read_text() + '\n  acme.gone.job:\n    idempotent: "no"\n')
    markers = tmp_path / "markers"
    markers.mkdir()
    return Project(root, markers)


def test_an_overlay_named_like_a_module_is_read_not_imported(project: Project) -> None:
    _hostile.overlay_is_code(project.root, project.markers, "pr")
    done = project.assert_contained()
    assert "[overlay-invalid] The overlay policy.py cannot be used" in done.stdout


@pytest.mark.parametrize("module", ["shlex.py", "yaml/__init__.py", "pytest_jobledger/__init__.py"])
@pytest.mark.parametrize("workers", ["", "-n 2"], ids=["no-xdist", "xdist"])
def test_a_module_in_the_working_directory_never_shadows_the_real_one(
    project: Project, module: str, workers: str
) -> None:
    """The gate's interpreter, pytest, and pytest-xdist's workers (which execnet starts without
    ``-I``) all import the real ``shlex``, PyYAML and pytest-jobledger."""
    _hostile.plant(project.root, project.markers, "pr", (module,))
    project.args = workers
    project.assert_contained()


@pytest.mark.parametrize("pythonpath", [".", "{root}"], ids=["relative", "absolute"])
def test_startup_files_on_the_jobs_pythonpath_never_run(project: Project, pythonpath: str) -> None:
    """A workflow that sets ``PYTHONPATH`` to the checkout for its own tests: the action's
    interpreters ignore it, and pytest-xdist's workers never see it."""
    _hostile.plant(project.root, project.markers, "pr", _hostile.STARTUP)
    project.env["PYTHONPATH"] = pythonpath.format(root=project.root)
    project.args = "-n 2" if pythonpath == "{root}" else ""
    project.assert_contained()


def test_conftest_files_are_never_imported(project: Project) -> None:
    for folder in ("", "overlays/", "src/"):
        _hostile.plant(project.root, project.markers, "pr", (f"{folder}conftest.py",))
    project.assert_contained()


@pytest.mark.parametrize("ini", _hostile.INI_FILES)
def test_the_projects_pytest_configuration_is_never_read(project: Project, ini: str) -> None:
    """``pythonpath``, ``python_files``, ``addopts = -p ...`` and ``required_plugins``, in each file
    pytest would read (an old action cleared only ``addopts``)."""
    if ini == "pytest.toml" and int(pytest.__version__.split(".")[0]) < 9:
        pytest.skip("pytest reads pytest.toml from 9.0")
    _hostile.plant(project.root, project.markers, "pr", _hostile.PYTEST_FILES)
    _hostile.plant(project.root / "vendor", project.markers, "pr/vendor", LATE)
    _hostile.write_ini(project.root, ini)
    project.args = "-n 2" if ini == "pytest.ini" else ""  # workers read the ini too
    project.assert_contained()


def test_a_pythonpath_of_the_project_is_never_on_sys_path(project: Project) -> None:
    """``pythonpath = vendor`` alone: pytest would import the debugger (``pdb``) from it."""
    _hostile.plant(project.root / "vendor", project.markers, "pr/vendor", LATE)
    _hostile.write_ini(project.root, "pytest.ini", {"pythonpath": "vendor"})
    project.assert_contained()


def test_only_the_tools_plugins_and_xdists_load(project: Project) -> None:
    """This environment has other pytest plugins installed (hypothesis,
    pytest-github-actions-annotate-failures): none of them autoloads in the gate."""
    project.args = "--trace-config"
    done = project.assert_contained()
    registered = set(re.findall(r"PLUGIN registered: <module '([\w.]+)'", done.stdout))
    assert {name for name in registered if not name.startswith("_pytest.")} == {
        "pytest_jobledger.plugin",
        "pytest_jobledger.github.plugin",
        "xdist.plugin",
        "xdist.looponfail",
    }


def test_node_ids_are_relative_to_the_project_and_select_items(project: Project) -> None:
    project.args = "--collect-only -q"
    done = project.gate()
    assert done.returncode == 0, done.stdout + done.stderr
    ids = [line for line in done.stdout.splitlines() if "::" in line]
    assert "overlays/job_policy.yaml::acme.gone.job::orphan" in ids
    assert "overlays/job_policy.yaml::jobledger-status::overlay-valid" in ids
    project.args = "--deselect overlays/job_policy.yaml::acme.gone.job::orphan"
    project.findings = 0
    done = project.gate()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "43 passed, 1 deselected" in done.stdout


def test_xdist_runs_with_plugin_autoload_off(project: Project) -> None:
    """xdist's workers get the controller's ``-p`` options (and ``-c``, ``--rootdir``)."""
    project.args = "-n 2"
    done = project.assert_contained()
    assert "2 workers [44 items]" in done.stdout
