"""A hostile pull request through the real action, in act: none of its files ever runs.

The repository plants every route by which an action could run a pull request's code (see
:mod:`._hostile`): modules that shadow ``shlex``, ``yaml``, ``pytest_jobledger``, ``venv`` and
``pip`` at the top of the repository and in each working directory, ``sitecustomize.py``,
``usercustomize.py`` and a ``.pth`` file (the workflow sets ``PYTHONPATH: .``, as many do for their
own tests), a ``conftest.py``, an overlay named ``policy.py``, and in each working directory a
different pytest configuration file (pytest reads only the first it finds) with ``pythonpath``,
``python_files``, ``addopts = -p ...`` and ``required_plugins`` (``pytest.toml`` is left to
test_action_isolation.py: each gate run here costs an install). The action comes from its own
folder, as ``uses: <owner>/pytest-jobledger@<tag>`` would fetch it (``--local-repository``).

Every file touches a marker when it runs; the test asserts there is none, and that each of the
four gate runs still reported its finding as annotation, outputs and SARIF.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from repo_files import copy_tracked

from . import _act, _hostile
from ._act import commands_acted_on

pytestmark = [_act.needs_act, pytest.mark.act]

EXAMPLE = Path(__file__).parents[2] / "examples" / "celery"
ACTION = "jobledger/pytest-jobledger@v1"

#: Working directory -> (step id, the pytest configuration file planted there).
PROJECTS: dict[str, tuple[str, str]] = {
    ".": ("root", "pyproject.toml"),
    "services/ini": ("ini", "pytest.ini"),
    "services/tox": ("tox", "tox.ini"),
    "services/cfg": ("cfg", "setup.cfg"),
}
#: The steps that spread the gate over pytest-xdist workers (the rest run it in one process).
XDIST = ("ini",)

#: Modules pytest imports only after it has read ``pythonpath`` (the debugger, and what xdist's
#: workers need): planted in ``vendor/``, which only the repository's ini puts on the path.
LATE: tuple[str, ...] = ("pdb.py", "gzip.py", "getpass.py")

STEP = """\
      - id: {id}
        if: always()
        uses: {action}
        with:
          working-directory: {where}
          python: {python}
          pytest-args: {args}
          sarif-file: {id}.sarif
"""

WORKFLOW = """\
on: push
env: {env}
jobs:
  gate:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
{steps}      - name: report
        if: always()
        env:
          S: ${{{{ toJSON(steps) }}}}
        run: >-
          python3 -I -c
          'import json, os; print("steps:", json.dumps(json.loads(os.environ["S"])))'
"""


def orphan(step: str) -> str:
    return f"acme.gone.{step}"


def where_label(where: str) -> str:
    return "root" if where == "." else where


def make_repo(base: Path, markers: Path) -> Path:
    repo = base / "repo"
    copy_tracked(EXAMPLE / "src", repo / "src")
    copy_tracked(EXAMPLE / "generated", repo / "generated")
    (repo / "pyproject.toml").write_text('[tool.jobledger]\npaths = ["src"]\n', encoding="utf-8")
    _hostile.overlay_is_code(repo, markers, "root")
    for where, (step, ini) in PROJECTS.items():
        folder = repo / where
        label = where_label(where)
        if where != ".":
            copy_tracked(EXAMPLE, folder)
            overlay = folder / "overlays" / "job_policy.yaml"
            text = overlay.read_text(encoding="utf-8")
            overlay.write_text(text + f'\n  {orphan(step)}:\n    idempotent: "no"\n', "utf-8")
        _hostile.plant_all(folder, markers, label)
        _hostile.plant(folder / "vendor", markers, f"{label}/vendor", LATE)
        _hostile.write_ini(folder, ini)
    steps = "".join(
        STEP.format(
            id=step,
            action=ACTION,
            where=where,
            python=json.dumps(base_python()),
            args='"-n 2"' if step in XDIST else '""',
        )
        for where, (step, _) in PROJECTS.items()
    )
    env = {"PYTHONPATH": ".", **_act.pip_env(base / "wheels")}
    workflows = repo / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (workflows / "gate.yml").write_text(WORKFLOW.format(env=json.dumps(env), steps=steps))
    _act.commit(repo)
    return repo


def base_python() -> str:
    """The interpreter this venv was made from, like a runner's ``python3`` (its user site is on,
    so a ``usercustomize.py`` on ``PYTHONPATH`` would run)."""
    return str(getattr(sys, "_base_executable", sys.executable))


def test_a_hostile_pull_request_runs_no_code_and_is_still_gated(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """One test, not one per check: each act run costs installs, and a module-scoped run would
    be repeated on every pytest-xdist worker that got one of several tests."""
    base = tmp_path_factory.mktemp("act-hostile")
    markers = base / "markers"
    markers.mkdir()
    _act.wheelhouse(base)
    action = _act.copy_action(base / "action")
    events = _act.run(make_repo(base, markers), base, ["--local-repository", f"{ACTION}={action}"])

    assert _hostile.fired(markers) == [], "the action ran files of the pull request"

    assert _act.job_results(events) == ["failure"]
    found = steps(events)
    assert {step: found[step]["outcome"] for step, _ in PROJECTS.values()} == {
        step: "failure" for step, _ in PROJECTS.values()
    }
    outputs = {step: found[step]["outputs"] for step, _ in PROJECTS.values()}
    assert {step: (out["failing-cells"], out["orphans"]) for step, out in outputs.items()} == {
        "root": ("1", "0"),  # the overlay policy.py is read as YAML, and is no overlay
        "ini": ("1", "1"),
        "tox": ("1", "1"),
        "cfg": ("1", "1"),
    }

    annotated = {
        step: [
            (c.properties["file"], c.properties["title"])
            for c in commands_acted_on(events, "error", step)
        ]
        for step, _ in PROJECTS.values()
    }
    expected = {
        step: [(f"{where}/overlays/job_policy.yaml", f"jobledger orphan: {orphan(step)}::orphan")]
        for where, (step, _) in PROJECTS.items()
    }
    expected["root"] = [("policy.py", "jobledger overlay-invalid: jobledger-status::overlay-valid")]
    assert annotated == expected

    # sarif-file is relative to the working directory, though pytest runs elsewhere.
    workspace = Path(outputs["root"]["sarif"]).parent
    for where, (step, _) in PROJECTS.items():
        sarif = Path(outputs[step]["sarif"])
        assert sarif == workspace / where / f"{step}.sarif"
        assert len(json.loads(sarif.read_text(encoding="utf-8"))["runs"][0]["results"]) == 1


def steps(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The workflow's ``steps`` context, as its last step printed it."""
    lines = [line for line in _act.printed(events) if line.startswith("steps: ")]
    assert len(lines) == 1, _act.printed(events)
    result: dict[str, Any] = json.loads(lines[0].removeprefix("steps: "))
    return result


PULL_REQUEST_WORKFLOW = """\
on: pull_request
jobs:
  gate:
    runs-on: ubuntu-latest
    env: {env}
    steps:
      - uses: actions/checkout@v4
      - id: gate
        uses: {action}
        with:
          python: {python}
"""


def test_a_planted_git_directory_runs_nothing_on_a_pull_request(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """``overlays/`` and the cache folder laid out as git directories naming a program for every
    setting (test_hostile_git.py plants them the same way), on a ``pull_request`` event, where the
    job summary asks git for the overlay's changed lines: no program runs, the new unsigned job
    fails the step. One step, one install: the direct routes are in test_hostile_git.py."""
    from .test_hostile_git import ATTRIBUTES, NEW_TASKS, attacker_history, plant, programs

    base = tmp_path_factory.mktemp("act-hostile-git")
    markers = base / "markers"
    markers.mkdir()
    evil = base / "evil"
    programs(evil, markers)
    repo = base / "repo"
    copy_tracked(EXAMPLE, repo)
    workflows = repo / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (workflows / "gate.yml").write_text(
        PULL_REQUEST_WORKFLOW.format(
            env=json.dumps(_act.pip_env(base / "wheels")),
            action=ACTION,
            python=json.dumps(base_python()),
        )
    )
    sha = _act.commit(repo, "base")
    (repo / "src" / "acme_shop" / "hostile.py").write_text(NEW_TASKS)
    overlay = repo / "overlays" / "job_policy.yaml"
    overlay.write_text(overlay.read_text() + "# touched by the pull request\n")
    history = attacker_history(base)
    for folder in (repo / "overlays", repo / ".jobledger_cache", repo / "generated"):
        plant(folder, evil, history, repo / ".git")
        (folder / ".gitattributes").write_text(ATTRIBUTES)
    (repo / ".jobledger_cache" / "CACHEDIR.TAG").write_text(
        "Signature: 8a477f597d28d172789f06886806bc55\n"
    )
    _act.commit(repo, "head")
    event = base / "event.json"
    event.write_text(json.dumps({"pull_request": {"base": {"sha": sha, "ref": "main"}}}))
    _act.wheelhouse(base)
    action = _act.copy_action(base / "action")
    events = _act.run(
        repo,
        base,
        ["-e", str(event), "--local-repository", f"{ACTION}={action}"],
        event="pull_request",
    )

    assert _hostile.fired(markers) == [], "git ran a program the pull request configured"
    assert _act.job_results(events) == ["failure"]
    summaries = [e for e in _act.step_events(events, "gate") if e.get("command") == "summary"]
    assert summaries, "the job summary (which asks git for changed lines) was written"
