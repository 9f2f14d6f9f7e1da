"""``jobledger gate``: the gate as pytest items without the project's test environment, by the
same command the Action runs, so a laptop and the pull request's check agree.

The project here has a test environment the gate must not need: a ``conftest.py`` that fails on
import, ``addopts`` naming a plugin that is not installed, and a ``pythonpath`` that does not
exist. ``pytest --jobledger`` in it cannot even start; ``jobledger gate`` runs every item.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from repo_files import REPO, copy_tracked

PYTEST_TABLE = """
[tool.pytest.ini_options]
addopts = "-p no_such_plugin_anywhere --strict-config"
pythonpath = ["no/such/folder"]
DJANGO_SETTINGS_MODULE = "settings_that_do_not_exist"
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = copy_tracked(REPO / "examples" / "homegrown", tmp_path / "shop")
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text("utf-8")
    start = text.find("[tool.pytest.ini_options]")
    if start != -1:  # the example's own pytest table gives way to the hostile one
        end = text.find("\n[", start + 1)
        text = text[:start] + (text[end + 1 :] if end != -1 else "")
    pyproject.write_text(text + PYTEST_TABLE, "utf-8")
    (root / "conftest.py").write_text("raise RuntimeError('the project test environment')\n")
    return root


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER")
    }
    return subprocess.run(
        [sys.executable, *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_gate_runs_without_the_project_test_environment(project: Path) -> None:
    plain = _run(project, "-m", "pytest", "--jobledger", "-p", "no:randomly")
    assert plain.returncode != 0  # the project's own test environment stops plain pytest
    done = _run(project, "-m", "pytest_jobledger", "gate", "--", "-p", "no:randomly")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    assert "13 passed" in done.stdout
    assert "the project test environment" not in done.stdout + done.stderr


def test_the_gate_fails_as_the_action_would(project: Path) -> None:
    overlay = project / "overlays" / "job_policy.yaml"
    overlay.write_text(
        overlay.read_text("utf-8").replace("paging_owner: billing-oncall", "paging_owner: ''"),
        "utf-8",
    )
    done = _run(project, "-m", "pytest_jobledger", "gate")
    assert done.returncode == 1, done.stdout[-3000:]
    assert "[unsigned]" in done.stdout


def test_the_action_runs_the_same_command() -> None:
    action = (REPO / "action.yml").read_text("utf-8")
    assert '"$JOBLEDGER_VENV_PYTHON" -I -m pytest_jobledger gate' in action
