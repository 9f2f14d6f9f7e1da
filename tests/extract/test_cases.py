"""Extraction cases: one folder per case under ``tests/cases/extract``, checked against its
``expected.json``.

A case folder is a small source tree exactly as it would sit in a repository, an optional
``pyproject.toml`` with ``[tool.jobledger]``, and ``expected.json``::

    {"about": "what the case shows (free text, not compared)",
     "jobs": [{"id": "pkg.tasks.f", "line": 4, "queue": "billing",
               "unresolved": ["max_retries"], "reasons": {"max_retries": "not set"}}],
     "unsupported": [{"path": "pkg/tasks.py", "line": 12, "pattern": "factory-registration"}]}

- ``jobs``: the ids must match exactly, duplicates counted. Only the fields an entry lists are
  compared, as JSON (so ``60`` is not ``60.0`` and ``1`` is not ``true``); ``unresolved`` and
  ``defaults`` are compared as the set of keys; ``reasons`` maps a field to a piece of text its
  reason in ``unresolved`` must contain.
- ``unsupported``: compared as a set of (path, line, pattern) when present; an entry without
  ``line`` matches any line; ``message``, when given, is text the entry's message must contain.
  Leave the key out when a case is not about unsupported places.

Adding a case is adding a folder; see ``tests/cases/extract/README.md``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from pytest_jobledger.extract import extract_ledger
from pytest_jobledger.ledger.model import ALL_LEDGER_KEYS, RESOLVED_FIELDS, Job, Ledger
from pytest_jobledger.project import load_config

CASES_DIR = Path(__file__).resolve().parent.parent / "cases" / "extract"
CASES = sorted(path for path in CASES_DIR.iterdir() if (path / "expected.json").is_file())

_TOP_KEYS = {"about", "jobs", "unsupported"}
_JOB_KEYS = {*ALL_LEDGER_KEYS, "reasons"}
_KEY_SETS = ("unresolved", "defaults")
_UNSUPPORTED_KEYS = {"path", "line", "pattern", "message", "accepted"}


def _load_expected(case: Path) -> dict[str, Any]:
    expected: dict[str, Any] = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    unknown = set(expected) - _TOP_KEYS
    assert not unknown, f"{case.name}/expected.json: unknown top-level keys {sorted(unknown)}"
    assert isinstance(expected.get("jobs"), list), f"{case.name}/expected.json: 'jobs' is required"
    for row in expected["jobs"]:
        bad = set(row) - _JOB_KEYS
        assert "id" in row, f"{case.name}/expected.json: every job needs an 'id': {row}"
        assert not bad, f"{case.name}/expected.json: {row['id']}: unknown keys {sorted(bad)}"
    for row in expected.get("unsupported", []):
        where = f"{case.name}/expected.json: unsupported entry {row}"
        assert not set(row) - _UNSUPPORTED_KEYS, (
            f"{where}: only path, line, pattern, message, accepted"
        )
        assert {"path", "pattern"} <= set(row), f"{where}: needs path and pattern"
    return expected


def _extract(case: Path) -> Ledger:
    return extract_ledger(load_config(root=case))


def _as_json(value: Any) -> str:
    """Compare the way the ledger file will read: 60 and 60.0, 1 and true are different."""
    return json.dumps(value, sort_keys=True)


def _pick(candidates: list[Job], want: Mapping[str, Any]) -> Job | None:
    for job in candidates:
        if all(want[key] == getattr(job, key) for key in ("path", "line") if key in want):
            return job
    return None


def _job_mismatches(job: Job, want: Mapping[str, Any]) -> list[str]:
    actual = {"delivery": {}, **job.to_json()}  # written only when set
    problems: list[str] = []
    for key, expected_value in want.items():
        if key == "reasons":
            for field_name, fragment in expected_value.items():
                reason = job.unresolved.get(field_name)
                if reason is None or fragment not in reason:
                    problems.append(
                        f"unresolved[{field_name!r}] should mention {fragment!r}, got {reason!r}"
                    )
        elif key in _KEY_SETS:
            got = sorted(actual[key])
            if got != sorted(set(expected_value)):
                problems.append(f"{key} keys: expected {sorted(expected_value)}, got {got}")
        elif _as_json(actual[key]) != _as_json(expected_value):
            problems.append(f"{key}: expected {expected_value!r}, got {actual[key]!r}")
    return problems


def _check_jobs(ledger: Ledger, wanted: Sequence[Mapping[str, Any]]) -> list[str]:
    actual_ids = Counter(job.id for job in ledger.jobs)
    expected_ids = Counter(row["id"] for row in wanted)
    if actual_ids != expected_ids:
        missing = sorted((expected_ids - actual_ids).elements())
        extra = sorted((actual_ids - expected_ids).elements())
        found = [f"{job.id} at {job.location}" for job in ledger.jobs]
        return [f"job ids differ: missing {missing}, unexpected {extra}; the ledger has {found}"]
    remaining = list(ledger.jobs)
    problems: list[str] = []
    for want in wanted:
        job = _pick([j for j in remaining if j.id == want["id"]], want)
        if job is None:
            problems.append(f"{want['id']}: no row at {want.get('path')}:{want.get('line')}")
            continue
        remaining.remove(job)
        problems.extend(f"{job.id} ({job.location}): {p}" for p in _job_mismatches(job, want))
    return problems


def _check_unsupported(ledger: Ledger, wanted: Sequence[Mapping[str, Any]]) -> list[str]:
    remaining = [
        (item.path, item.line, item.pattern, item.message, item.accepted)
        for item in ledger.unsupported
    ]
    problems: list[str] = []
    for want in wanted:
        match = next(
            (
                entry
                for entry in remaining
                if entry[0] == want["path"]
                and entry[2] == want["pattern"]
                and ("line" not in want or entry[1] == want["line"])
                and want.get("message", "") in entry[3]
                and (
                    entry[4] is None
                    if "accepted" not in want
                    else entry[4] is not None and want["accepted"] in entry[4]
                )
            ),
            None,
        )
        if match is None:
            problems.append(f"unsupported entry not reported: {want}")
        else:
            remaining.remove(match)
    problems.extend(f"unexpected unsupported entry: {entry[:3]}" for entry in remaining)
    return problems


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_extraction_matches_expected(case: Path) -> None:
    expected = _load_expected(case)
    ledger = _extract(case)
    problems = _check_jobs(ledger, expected["jobs"])
    if "unsupported" in expected:
        problems += _check_unsupported(ledger, expected["unsupported"])
    assert not problems, f"{case.name}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_every_null_field_has_a_reason(case: Path) -> None:
    """A reviewer must always learn why a value is missing, and never see a reason for a value."""
    ledger = _extract(case)
    problems: list[str] = []
    for job in ledger.jobs:
        for name in RESOLVED_FIELDS:
            value = getattr(job, name)
            if value is None and not job.unresolved.get(name):
                problems.append(f"{job.id}: {name} is null without a reason")
            if value is not None and name in job.unresolved:
                problems.append(f"{job.id}: {name} = {value!r} yet listed as unresolved")
        if job.path.startswith("/") or "\\" in job.path or job.path.startswith(".."):
            problems.append(f"{job.id}: path {job.path!r} is not relative with '/' separators")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_every_problem_reads_in_one_line_then_its_fix(case: Path) -> None:
    """A person reads what and where in one sentence, then the fix fitted to the place: test
    code is never told to declare its test function as a job decorator."""
    problems: list[str] = []
    for item in _extract(case).unsupported:
        if item.pattern.value.endswith(("-registration", "-ignore")) or item.pattern.value in (
            "ambiguous-name",
            "unresolved-import",
        ):
            first, newline, fix = item.message.partition("\n")
            if len(first) > 160 or not newline or not fix:
                problems.append(f"{item.location}: {item.message!r}")
            if "tests/" in item.path and "tool.jobledger.decorators" in fix:
                problems.append(f"{item.location}: test code told to declare a decorator")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_extracting_twice_gives_identical_bytes(case: Path) -> None:
    assert _extract(case).dumps() == _extract(case).dumps()


def test_cases_are_found() -> None:
    """Guard against a moved folder silently turning the parametrized tests into zero tests."""
    assert len(CASES) >= 30
