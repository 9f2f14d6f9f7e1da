"""Data-driven gate cases: every folder under tests/cases/gate is one case, picked up automatically.

A case folder holds a small source tree, a ``pyproject.toml``, usually ``overlays/job_policy.yaml``
(and, for freshness cases, ``generated/job_ledger.json``), and ``expected.json``:

    {"about": "...", "findings": [{"id", "cell", "kind", "path", "line", "level", "says": [...]}],
     "skipped": 0, "skipped_says": [...], "today": "YYYY-MM-DD"}

A case with no ``generated/job_ledger.json`` is judged as if its fresh ledger were committed
(written into a copy of the case before the gate runs), unless ``"committed_ledger": false`` says
the case is about a project that has none.

The findings must be exactly the expected ones, in the expected order (``level`` defaults to
"error"); ``says`` lists text the message must contain. ``skipped`` counts checks that could not
be judged (overlay unreadable, no base), ``skipped_says`` text their reasons hold; ``today`` pins
the gate's date.

A git case has ``base/`` and ``head/`` trees instead: the test commits ``base/``, then replaces it
with ``head/`` and commits again, in a fresh repository, and runs the gate on the head with the
first commit as the base. ``"git": {...}`` in ``expected.json`` may add ``"subdir"`` (the project
sits in that folder of the repository), ``"ref"`` (the base ref to pass; default ``HEAD~1``) and
``"shallow": true`` (the gate runs in a ``--depth 1`` clone, which lacks the base) and
``"head_author"`` (``"Name <email>"``: someone else commits the head).
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest
from repo_files import copy_tracked

from pytest_jobledger.findings import GateResult
from pytest_jobledger.session import Session

from ._repo import build_repository, commit_fresh_ledger

CASES = Path(__file__).resolve().parent.parent / "cases" / "gate"
CASE_DIRS = sorted(path for path in CASES.iterdir() if (path / "expected.json").is_file())


def _expected(case: Path) -> dict[str, Any]:
    return json.loads((case / "expected.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def run_case(case: Path, work: Path) -> tuple[GateResult, dict[str, Any]]:
    expected = _expected(case)
    today = datetime.date.fromisoformat(expected["today"]) if "today" in expected else None
    # What `pytest --jobledger` and `jobledger check` report: the gate's items and, with
    # `runbook` configured, the runbook's freshness.
    if (case / "head").is_dir():
        settings = expected.get("git", {})
        root = build_repository(case, work, settings)
        base = settings.get("ref", "HEAD~1")
        config = commit_fresh_ledger(root, expected)
        return Session.open(config, base=base, today=today).fresh_view, expected
    root = work / case.name
    copy_tracked(case, root)
    config = commit_fresh_ledger(root, expected)
    return Session.open(config, today=today).fresh_view, expected


@pytest.mark.parametrize("case", CASE_DIRS, ids=[path.name for path in CASE_DIRS])
def test_case(case: Path, tmp_path: Path) -> None:
    result, expected = run_case(case, tmp_path)
    got = [
        {
            "id": f.job,
            "cell": f.cell,
            "kind": f.kind.value,
            "path": f.path,
            "line": f.line,
            "level": f.level.value,
        }
        for f in result.findings
    ]
    want = [
        {
            **{key: row[key] for key in ("id", "cell", "kind", "path", "line")},
            "level": row.get("level", "error"),
        }
        for row in expected["findings"]
    ]
    assert got == want
    for finding, row in zip(result.findings, expected["findings"], strict=True):
        for text in row.get("says", []):
            assert text in finding.message, (finding.job, finding.cell)
        assert finding.job in finding.message or finding.kind.value in (
            "overlay-invalid",
            "ledger-stale",
            "runbook-stale",
            "unsupported",
            "owners-invalid",
            "no-jobs",
            "signers-unknown",
        )
    skipped = [check for check in result.checks if check.skipped]
    assert len(skipped) == expected.get("skipped", 0)
    reasons = " ".join(check.skipped or "" for check in skipped)
    for text in expected.get("skipped_says", []):
        assert text in reasons


@pytest.mark.parametrize("case", CASE_DIRS, ids=[path.name for path in CASE_DIRS])
def test_case_is_deterministic(case: Path, tmp_path: Path) -> None:
    first, _ = run_case(case, tmp_path / "one")
    second, _ = run_case(case, tmp_path / "two")
    # The same but for the folder each copy ran in (an empty scan's message names the root).
    one = repr(first.checks).replace(str(tmp_path / "one"), "<work>")
    assert one == repr(second.checks).replace(str(tmp_path / "two"), "<work>")
