"""Every entry point agrees on every (job, cell), whatever state the project is in.

Hypothesis (derandomized, the suite's profiles) draws a project state: the homegrown example's
cells (signed text, a whole number, blank, an unquoted yes, a quoted number, missing, a review
date), an owners roster, ``max_overlay_bytes``, CRLF line endings on the committed ledger, the
day (``JOBLEDGER_TODAY``), a git base with or without a code change since, a baseline written by
``jobledger baseline``, and a drafts file (valid or nested past any parser's depth). Then it asks
each entry point, in process, whether each cell is signed: the pytest item's outcome,
``check --format json``, the verdict's and ``show``'s evidence labels, ``list``'s signed flag and
the runbook model (``render --preview --format json``). They must say the same, and none may
raise.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from gate._repo import GIT_ENV
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_jobledger.cli import main

REPO = Path(__file__).resolve().parents[2]
HOMEGROWN = REPO / "examples" / "homegrown"
OVERLAY = "overlays/job_policy.yaml"
JOBS = ("acme.billing.tasks.capture_invoice", "acme.billing.tasks.send_receipt")
OWNERS = ("billing-oncall", "messaging-oncall")
#: What a cell may hold, as YAML text after ``key:`` (``None``: the key is left out).
VALUES = {
    "idempotent": (None, '"yes"', '"no"', "yes", '""', '"unknown"'),
    "paging_owner": (None, "billing-oncall", "messaging-oncall", '" "', "5"),
    "poison_policy": (None, "park it", '""', '"12"'),
    "bulk_retry_limit": (None, "100", '"100"', "-1"),
    "reviewed_on": (None, "2025-01-01", "2024-06-01", "soon"),
}
COUNTER = itertools.count()


@dataclass(frozen=True)
class State:
    cells: tuple[tuple[str, str, str | None], ...]
    roster: tuple[str, ...] | None
    tiny_overlay_limit: bool
    crlf: bool
    today: str
    base: bool
    code_changed: bool
    baseline: bool
    drafts: str | None


@st.composite
def states(draw: st.DrawFn) -> State:
    cells = tuple(
        (job, cell, draw(st.sampled_from(values)))
        for job in JOBS
        for cell, values in VALUES.items()
    )
    return State(
        cells=cells,
        roster=draw(st.sampled_from([None, OWNERS[:1], OWNERS])),
        tiny_overlay_limit=draw(st.booleans()),
        crlf=draw(st.booleans()),
        today=draw(st.sampled_from(["2025-01-10", "2025-06-01"])),
        base=draw(st.booleans()),
        code_changed=draw(st.booleans()),
        baseline=draw(st.booleans()),
        drafts=draw(st.sampled_from([None, "valid", "deep"])),
    )


def _overlay(state: State) -> str:
    text = "jobs:\n"
    for job in JOBS:
        text += f"  {job}:\n    runtime_class: batch\n    purpose_accepted: does its job\n"
        for owner, cell, value in state.cells:
            if owner == job and value is not None:
                text += f"    {cell}: {value}\n"
    return text


def _cli(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    assert "Traceback" not in err.getvalue()
    return code, out.getvalue()


def _git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "init.defaultBranch=main", *args],
        cwd=root,
        env={**os.environ, **GIT_ENV},
        check=True,
        capture_output=True,
    )


@contextlib.contextmanager
def _today(day: str) -> Iterator[None]:
    old = os.environ.get("JOBLEDGER_TODAY")
    os.environ["JOBLEDGER_TODAY"] = day
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("JOBLEDGER_TODAY", None)
        else:
            os.environ["JOBLEDGER_TODAY"] = old


def _project(state: State, work: Path) -> Path:
    root = work / f"state-{next(COUNTER)}"
    shutil.copytree(HOMEGROWN, root)
    table = ["max_review_age_days = 365"]
    if state.roster is not None:
        table.append('owners = "overlays/owners.yaml"')
        (root / "overlays" / "owners.yaml").write_text("".join(f"- {n}\n" for n in state.roster))
    if state.tiny_overlay_limit:
        table.append("max_overlay_bytes = 64")
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text("utf-8")
    pyproject.write_text(
        text.replace("[tool.jobledger]\n", "[tool.jobledger]\n" + "\n".join(table) + "\n", 1)
    )
    if state.base:
        _git(root, "init", "-q")
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "-m", "base")
    (root / OVERLAY).write_text(_overlay(state), "utf-8")
    if state.code_changed:
        tasks = root / "src" / "acme" / "billing" / "tasks.py"
        tasks.write_text(tasks.read_text("utf-8").replace("max_retries=5", "max_retries=6"))
        assert _cli("extract", "--root", str(root))[0] == 0
    if state.drafts == "valid":
        (root / "overlays" / "purpose_drafts.yaml").write_text("drafts: {}\n")
    elif state.drafts == "deep":
        (root / "overlays" / "purpose_drafts.yaml").write_text("[" * 50000 + "]" * 50000)
    if state.base:
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "-m", "head")
    if state.crlf:
        ledger = root / "generated" / "job_ledger.json"
        ledger.write_bytes(ledger.read_bytes().replace(b"\n", b"\r\n"))
    return root


def _pytest_signed(
    pytester: pytest.Pytester, root: Path, state: State
) -> dict[tuple[str, str], bool]:
    args = ["-p", "no:cacheprovider", "-p", "no:randomly", "-rA", "--jobledger"]
    args += ["--jobledger-root", str(root)]
    if state.base:
        args += ["--jobledger-base", "HEAD~1"]
    recorder = pytester.inline_run(*args, str(root / OVERLAY))
    outcomes: dict[tuple[str, str], bool] = {}
    for report in recorder.getreports("pytest_runtest_logreport"):
        parts = report.nodeid.split("::")
        if len(parts) < 3 or parts[-2] not in JOBS:
            continue
        if report.when == "call" or (report.when == "setup" and report.skipped):
            passed = report.passed and not hasattr(report, "wasxfail")
            outcomes[(parts[-2], parts[-1])] = passed
    return outcomes


@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(state=states())
def test_every_entry_point_agrees_on_every_cell(pytester: pytest.Pytester, state: State) -> None:
    root = _project(state, pytester.path)
    at = ("--root", str(root))
    with _today(state.today):
        if state.baseline:
            _cli("baseline", *at)
        items = _pytest_signed(pytester, root, state)
        assert items, "the gate collected no cell"
        base = ("--base", "HEAD~1") if state.base else ()
        _, text = _cli("check", "--format", "json", *at, *base)
        findings: list[dict[str, Any]] = json.loads(text)
        unreadable = any(f["kind"] == "overlay-invalid" for f in findings)
        stale = any(f["kind"] == "ledger-stale" for f in findings)
        failing = {(f["id"], f["cell"]) for f in findings if f["level"] != "warning"}
        listed = json.loads(_cli("list", "--json", *at)[1])
        assert (listed["ledger"]["stale"] is not None) == stale, state
        listing = {row["id"]: row for row in listed["jobs"]}
        shown = {job: json.loads(_cli("show", job, "--json", *at)[1]) for job in JOBS}
        code, text = _cli("render", "--preview", "--format", "json", "-o", "-", *at)
        assert code == 0
        book = {job["id"]: job for job in json.loads(text)["jobs"]}
        code, text = _cli("verdict", JOBS[0], "--action", "retry", "--actor", "t", "--json", *at)
        verdict = {fact["name"]: fact for fact in json.loads(text)["facts"]}
    for (job, cell), passed in items.items():
        label = (job, cell, state)
        fresh = not unreadable and (job, cell) not in failing
        assert passed == fresh, label
        facts = {fact["name"]: fact for fact in shown[job]["facts"]}
        if cell not in facts:
            continue  # review-after-change: a warning about the job, not a cell anyone signs
        assert (facts[cell]["evidence"] == "signed") == passed, label
        if job == JOBS[0]:
            assert (verdict[cell]["evidence"] == "signed") == passed, label
        policy = {row["cell"]: row for row in book[job]["policy"]}
        if cell in policy:
            assert (policy[cell]["state"] == "signed") == passed, label
    for job in JOBS:
        cells = [passed for (owner, _), passed in items.items() if owner == job]
        assert listing[job]["signed"] == all(cells), (job, state)
