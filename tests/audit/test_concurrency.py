"""Eight processes giving verdicts at once lose no line and keep the chain valid.

Real processes, released together by a gate rather than by sleeps: each child starts, says it is
ready, and waits for one byte on stdin; the test releases all of them only when every one is
waiting, so their appends contend for the lock for real.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

from repo_files import copy_tracked

from pytest_jobledger import audit

REPO = Path(__file__).resolve().parents[2]
PROCESSES = 8
APPENDS = 25

APPENDER = """
import sys
from pathlib import Path
from pytest_jobledger.audit import append
root, worker, times = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
print("ready", flush=True)
sys.stdin.read(1)
for index in range(times):
    append(root / ".jobledger" / "audit.ndjson", {"worker": worker, "index": index}, root=root)
"""

VERDICT = """
import sys
from pytest_jobledger.cli import main
print("ready", flush=True)
sys.stdin.read(1)
sys.exit(main(sys.argv[1:]))
"""


def released_together(commands: list[list[str]]) -> list[subprocess.CompletedProcess[str]]:
    """Start every command, wait until each says it is ready, then let them all go at once."""
    children = [
        subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for command in commands
    ]
    try:
        for child in children:
            assert child.stdout is not None
            assert child.stdout.readline() == "ready\n", child.stderr and child.stderr.read()
        for child in children:
            assert child.stdin is not None
            child.stdin.write("x")
            child.stdin.flush()
        done = []
        for child, command in zip(children, commands, strict=True):
            out, err = child.communicate(timeout=300)
            done.append(subprocess.CompletedProcess(command, child.returncode, out, err))
        return done
    finally:
        for child in children:
            if child.poll() is None:  # only on a failure above: never leave a child behind
                child.kill()
                child.communicate()


def test_eight_appenders_lose_no_line_and_keep_the_chain(tmp_path: Path) -> None:
    commands = [
        [sys.executable, "-c", APPENDER, str(tmp_path), str(worker), str(APPENDS)]
        for worker in range(PROCESSES)
    ]
    for result in released_together(commands):
        assert result.returncode == 0, result.stderr
    path = tmp_path / ".jobledger" / "audit.ndjson"
    lines = audit.read_lines(path, root=tmp_path)
    assert len(lines) == PROCESSES * APPENDS
    seen = Counter((line.record or {}).get("worker") for line in lines)
    assert seen == {str(worker): APPENDS for worker in range(PROCESSES)}
    # Each worker's own lines keep their order: an append is never lost or replayed.
    for worker in range(PROCESSES):
        mine = [line.record["index"] for line in lines if line.record["worker"] == str(worker)]
        assert mine == list(range(APPENDS))
    report = audit.verify(path, root=tmp_path)
    assert (report.ok, report.lines, report.note) == (True, PROCESSES * APPENDS, "")


def test_eight_verdict_commands_at_once_each_leave_their_line(tmp_path: Path) -> None:
    root = tmp_path / "shop"
    copy_tracked(REPO / "examples" / "celery", root)
    job = "acme_shop.billing.tasks.capture_invoice"
    ask = ["verdict", job, "--root", str(root), "--json", "--action", "retry"]
    commands = [
        [sys.executable, "-c", VERDICT, *ask, "--actor", f"operator-{worker}"]
        for worker in range(PROCESSES)
    ]
    results = released_together(commands)
    lines = {}
    for result in results:
        assert result.returncode == 1, result.stderr  # blocked: "no", unguarded
        shown = json.loads(result.stdout)
        lines[shown["audit"]["line"]] = shown["audit"]["sha256"]
    assert sorted(lines) == list(range(1, PROCESSES + 1))
    path = root / ".jobledger" / "audit.ndjson"
    recorded = audit.read_lines(path, root=root)
    assert {line.number: line.sha256 for line in recorded} == lines
    assert {line.record["actor"] for line in recorded if line.record} == {
        f"operator-{worker}" for worker in range(PROCESSES)
    }
    assert audit.verify(path, root=root).ok
