"""Under ``pytest -n 2`` the session is read once: one gate evaluation on the controller, one
reading of the event payload, one ``git diff`` for the changed files and one for the overlay's
lines, however many workers run the items. Counted with ``JOBLEDGER_TRACE`` in real processes."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from helpers import git

from pytest_jobledger.core.trace import ENV

REPO = Path(__file__).resolve().parents[2]
HOMEGROWN = REPO / "examples" / "homegrown"
OVERLAY = "overlays/job_policy.yaml"


def test_one_reading_per_session_under_xdist(
    pytester: pytest.Pytester, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = pytester.path
    shutil.copytree(HOMEGROWN, repo, dirs_exist_ok=True)
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "base")
    base = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=repo, check=True, capture_output=True, text=True
    ).stdout.strip()
    overlay = repo / OVERLAY
    overlay.write_text(overlay.read_text("utf-8").replace("messaging-oncall", "mail-oncall"))
    git(repo, "commit", "-q", "-am", "change the receipt's owner")
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"base": {"sha": base}}}))
    log = tmp_path / "trace.log"
    monkeypatch.setenv(ENV, str(log))
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(repo))
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(event))
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "summary.md"))
    monkeypatch.delenv("GITHUB_OUTPUT", raising=False)
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)  # this suite's own worker
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-p", "no:randomly", "--jobledger", "--jobledger-base", base,
        "-n", "2", OVERLAY,
    )  # fmt: skip
    result.assert_outcomes(passed=14)
    assert "### Runbook: the jobs this pull request changed" in (tmp_path / "summary.md").read_text(
        "utf-8"
    )
    rows = [line.split(" ", 1) for line in log.read_text("utf-8").splitlines()]
    events = Counter(event for _, event in rows)
    assert events == {
        "session-open": 1,
        "base-read": 1,
        "gate-evaluated": 1,
        "event-payload": 1,
        "git-diff-files": 1,
        "git-diff-lines": 1,
    }
    # All of it in one process: the controller (the workers only run the items handed to them).
    assert len({pid for pid, _ in rows}) == 1
