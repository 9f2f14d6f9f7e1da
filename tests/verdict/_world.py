"""One job in a small world: a ledger row and an overlay entry built from a case, joined by the
gate's own join, turned into the facts the rules read. No files: the rules table runs in
milliseconds."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pytest_jobledger.gate.join import DUPLICATE_CELL, join
from pytest_jobledger.ledger.model import Job, Ledger
from pytest_jobledger.overlay.reader import parse_overlay
from pytest_jobledger.project import config_from_table
from pytest_jobledger.verdict import Action, JobFacts, Request
from pytest_jobledger.verdict.approval import ApprovalCheck, History
from pytest_jobledger.verdict.facts import collect

JOB_ID = "billing.tasks.capture_invoice"
OVERLAY = "overlays/job_policy.yaml"


def job(**fields: Any) -> Job:
    values: dict[str, Any] = {
        "id": JOB_ID,
        "function": "capture_invoice",
        "module": "billing.tasks",
        "path": "billing/tasks.py",
        "line": 6,
        "framework": "celery",
        "decorator": "celery.shared_task",
        "queue": "billing",
        "max_retries": 3,
        "docstring": "Charge a captured authorization.",
    }
    values.update(fields)
    unresolved = {
        name: "not set at registration" for name, value in values.items() if value is None
    }
    return Job(**values, unresolved=unresolved)


def overlay_text(cells: Mapping[str, Any], raw: Mapping[str, str], *, entry: bool = True) -> str:
    lines = ["jobs:"]
    if entry:
        lines.append(f"  {JOB_ID}:")
        lines.extend(f"    {key}: {json.dumps(value)}" for key, value in cells.items())
        lines.extend(f"    {key}: {value}" for key, value in raw.items())
    return "\n".join(lines) + "\n"


def world(base: Mapping[str, Any], case: Mapping[str, Any]) -> JobFacts:
    """The facts of the case's job: ``base`` changed as the case says (see rules.yaml)."""
    cells = dict(base["cells"])
    for key, value in case.get("cells", {}).items():
        if value is None:
            cells.pop(key, None)
        else:
            cells[key] = value
    raw = case.get("raw", {})
    for key in raw:
        cells.pop(key, None)
    config = config_from_table(case.get("config", {}), root=Path("."))
    fields = {**base.get("ledger", {}), **case.get("ledger", {})}
    rows = [job(**fields)]
    if case.get("duplicate"):  # sorted after the first, which stays the joined row
        rows.append(job(**fields, path="billing/tasks_v2.py", line=12))
    ledger = Ledger.build(rows)
    unreadable = None
    if case.get("overlay") == "unreadable":
        overlay = None
        unreadable = "not valid YAML: mapping values are not allowed here"
    else:
        text = overlay_text(cells, raw, entry=case.get("entry", True))
        overlay = parse_overlay(text, OVERLAY)
    result = join(ledger, overlay, config)
    (joined,) = result.jobs
    duplicate = next((f for f in result.findings if f.cell == DUPLICATE_CELL), None)
    return collect(
        joined,
        overlay_path=OVERLAY,
        required=config.cells.required,
        bulk_retry_limit=config.verdict.bulk_retry_limit,
        unreadable=unreadable,
        stale="changed billing.tasks.capture_invoice" if case.get("stale") else None,
        duplicate=duplicate,
    )


def request(case: Mapping[str, Any]) -> Request:
    spec = case["request"]
    return Request(
        job=JOB_ID,
        action=Action(spec["action"]),
        count=spec.get("count"),
        approved_by=spec.get("approved_by"),
        ticket=spec.get("ticket"),
        actor="tester",
        approval=approval(spec.get("approval")),
        history=History(**case.get("history", {})),
        trail_problem=spec.get("trail"),
    )


def approval(spec: Any) -> ApprovalCheck | None:
    """``verified`` (a member of the rotation signed this very plan), a list of the problems the
    check found (``[count, expired]``), or nothing: no --approval. The real ssh-keygen check
    of each problem is tests/cases/verdict/approvals.yaml's."""
    if spec is None:
        return None
    plan = spec.get("plan", PLAN) if isinstance(spec, dict) else PLAN
    problems = spec.get("problems", []) if isinstance(spec, dict) else []
    return ApprovalCheck(
        plan_sha256=plan,
        signature="plan.json.sig",
        principal="alice@example.com",
        problems=tuple(
            (name, f"the plan's {name} differs", "sign a new plan") for name in problems
        ),
        rotation="billing-oncall",
    )


#: The digest of the plan a case's approval signs.
PLAN = "a" * 64
