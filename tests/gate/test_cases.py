"""Data-driven gate cases: every folder under tests/cases/gate is one case, picked up automatically.

A case folder holds a small source tree, a ``pyproject.toml``, usually ``overlays/job_policy.yaml``
(and, for freshness cases, ``generated/job_ledger.json``), and ``expected.json``:

    {"about": "...", "findings": [{"id", "cell", "kind", "path", "line", "says": [...]}],
     "skipped": 0}

The findings must be exactly the expected ones, in the expected order; ``says`` lists text the
message must contain. ``skipped`` counts checks that could not be judged (overlay unreadable).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_jobledger.config import load_config
from pytest_jobledger.gate import evaluate

CASES = Path(__file__).resolve().parent.parent / "cases" / "gate"
CASE_DIRS = sorted(path for path in CASES.iterdir() if (path / "expected.json").is_file())


def _expected(case: Path) -> dict[str, Any]:
    return json.loads((case / "expected.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@pytest.mark.parametrize("case", CASE_DIRS, ids=[path.name for path in CASE_DIRS])
def test_case(case: Path) -> None:
    expected = _expected(case)
    result = evaluate(load_config(root=case))
    got = [
        {"id": f.job, "cell": f.cell, "kind": f.kind.value, "path": f.path, "line": f.line}
        for f in result.findings
    ]
    want = [
        {key: row[key] for key in ("id", "cell", "kind", "path", "line")}
        for row in expected["findings"]
    ]
    assert got == want
    for finding, row in zip(result.findings, expected["findings"], strict=True):
        for text in row.get("says", []):
            assert text in finding.message, (finding.job, finding.cell)
        assert finding.job in finding.message or finding.kind.value in (
            "overlay-invalid",
            "ledger-stale",
            "unsupported",
            "no-jobs",
        )
    skipped = [check for check in result.checks if check.skipped]
    assert len(skipped) == expected.get("skipped", 0)


@pytest.mark.parametrize("case", CASE_DIRS, ids=[path.name for path in CASE_DIRS])
def test_case_is_deterministic(case: Path) -> None:
    config = load_config(root=case)
    assert evaluate(config).checks == evaluate(config).checks
