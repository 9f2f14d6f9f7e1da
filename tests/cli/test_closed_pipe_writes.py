"""A reader that goes away never costs a file: ``jobledger baseline | head -3`` writes the whole
baseline, whatever the command printed before it wrote.

Each command that writes runs for real in a child process whose stdout is a pipe with no reader
(closed before the command starts, so every run meets it) and with ``PYTHONUNBUFFERED=1`` (as
many CI images set it), so its first line already meets the closed pipe. The file it writes
must then be byte for byte the file the same command writes when its output is read.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from repo_files import REPO, copy_tracked

JOB = "acme_shop.billing.tasks.ReconcileSettlements"
PARTLY = REPO / "tests" / "cases" / "runbook" / "partly_signed"
DRAFT = shlex.join(
    [sys.executable, "-c", "import sys; sys.stdin.read(); print('Reconciles the day.')"]
)


def _unsigned(root: Path) -> None:
    (root / "overlays" / "job_policy.yaml").unlink()


def _nothing(root: Path) -> None:
    del root


@dataclass(frozen=True)
class Writes:
    """A command, the files it writes (relative to the project), and how the project starts."""

    args: tuple[str, ...]
    files: tuple[str, ...]
    prepare: Callable[[Path], None] = _nothing
    example: Path = REPO / "examples" / "celery"
    #: Files whose bytes hold the moment they were made: compared as parsed JSON minus these keys.
    stamped: dict[str, frozenset[str]] = field(default_factory=dict)


COMMANDS = {
    "baseline": Writes(("baseline",), ("overlays/jobledger-baseline.json",), _unsigned),
    "stub": Writes(("stub",), ("overlays/job_policy.yaml",), _unsigned),
    "extract": Writes(("extract",), ("generated/job_ledger.json",)),
    "extract -o": Writes(("extract", "-o", "out/ledger.json"), ("out/ledger.json",)),
    "render": Writes(("render",), ("docs/jobs.md",)),
    "render json -o": Writes(("render", "--format", "json", "-o", "rb.json"), ("rb.json",)),
    "schema": Writes(("schema",), ("overlays/job_policy.schema.json",)),
    "check -o": Writes(("check", "--format", "json", "-o", "report.json"), ("report.json",)),
    "verdict --plan": Writes(
        ("verdict", JOB, "--action", "retry", "--actor", "alice", "--plan", "-o", "plan.json"),
        ("plan.json",),
        stamped={"plan.json": frozenset({"created", "expires", "nonce", "trail", "trail_head"})},
    ),
    "draft": Writes(
        ("draft", "--command", DRAFT), ("overlays/purpose_drafts.yaml",), example=PARTLY
    ),
}


def _run(root: Path, args: tuple[str, ...], stdout: int) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "JOBLEDGER_TODAY": "2026-06-01"}
    return subprocess.run(
        [sys.executable, "-m", "pytest_jobledger", *args, "--root", str(root)],
        cwd=root,
        env=env,
        stdout=stdout,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        timeout=120,
        check=False,
    )


def _project(spec: Writes, where: Path) -> Path:
    root = copy_tracked(spec.example, where)
    spec.prepare(root)
    for name in spec.files:
        (root / name).unlink(missing_ok=True)
    return root


def _content(spec: Writes, root: Path, name: str) -> object:
    data = (root / name).read_bytes()
    stamped = spec.stamped.get(name)
    if stamped is None:
        return data
    document = json.loads(data)
    return {key: value for key, value in document.items() if key not in stamped}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_closed_pipe_never_loses_a_file(tmp_path: Path, command: str) -> None:
    spec = COMMANDS[command]
    read_root = _project(spec, tmp_path / "read")
    _run(read_root, spec.args, subprocess.DEVNULL)
    closed_root = _project(spec, tmp_path / "closed")
    read, write = os.pipe()
    os.close(read)  # nobody will read: the first line written meets the closed pipe
    try:
        done = _run(closed_root, spec.args, write)
    finally:
        os.close(write)
    # Notes on stderr ("wrote ...") are read; nothing there is a traceback. 141 when a line met
    # the closed pipe, 0 when the command printed its notes on stderr only.
    assert b"Traceback" not in done.stderr
    assert b"Exception ignored" not in done.stderr
    assert done.returncode in (0, 141), done.stderr
    for name in spec.files:
        assert (read_root / name).is_file(), name
        assert (closed_root / name).is_file(), f"{command} lost {name} to a closed pipe"
        assert _content(spec, closed_root, name) == _content(spec, read_root, name)


def test_head_reads_three_lines_and_the_baseline_is_whole(tmp_path: Path) -> None:
    """The pipeline a user types: ``jobledger baseline | head -3``."""
    root = _project(COMMANDS["baseline"], tmp_path / "shop")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    done = subprocess.run(
        f"{shlex.quote(sys.executable)} -m pytest_jobledger baseline | head -3",
        shell=True,
        cwd=root,
        env=env,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().startswith("jobledger: wrote overlays/jobledger-baseline.json: ")
    baseline = json.loads((root / "overlays" / "jobledger-baseline.json").read_text())
    assert len(baseline["entries"]) == 40
