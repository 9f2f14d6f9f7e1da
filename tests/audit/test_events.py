"""Issue 22, the trail itself: every event kind has a JSON Schema shipped in the package and is
checked before it is appended, on every store; and a head write a crash cut short is recovered by
the next append instead of reading as tampering."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from pytest_jobledger import audit
from pytest_jobledger.audit import events

from .conftest import Backend

SHA = "0" * 63 + "1"
COMMON: dict[str, Any] = {
    "format": 1,
    "actor": "alice",
    "actor_from": "--actor",
    "job": "billing.tasks.capture_invoice",
    "version": "0.1.0",
}
#: One valid event of each kind.
VALID: dict[str, dict[str, Any]] = {
    "trail": {"format": 1, "event": "trail", "trail_id": "ab" * 16, "opened_by": "audit init"},
    "plan": {
        **COMMON,
        "event": "plan",
        "action": "bulk-retry",
        "count": 400,
        "ticket": "INC-1",
        "plan_sha256": SHA,
        "plan_path": "plan.json",
        "ledger_row_sha256": SHA,
        "overlay_entry_sha256": None,
        "created": "2026-12-03T00:00:00Z",
        "expires": "2026-12-04T00:00:00Z",
        "verdict": "needs-review",
    },
    "approval-check": {
        **COMMON,
        "event": "approval-check",
        "action": "bulk-retry",
        "count": 400,
        "ticket": "INC-1",
        "plan_sha256": SHA,
        "signature": "plan.json.sig",
        "principal": "dana@example.com",
        "rotation": "billing-oncall",
        "verified": True,
        "problems": [],
    },
    "verdict": {
        **COMMON,
        "event": "verdict",
        "action": "retry",
        "count": None,
        "approved_by": None,
        "ticket": None,
        "verdict": "approved",
        "blockers": [],
        "review": [],
        "ledger": "generated/job_ledger.json",
        "ledger_origin": "committed",
        "ledger_sha256": SHA,
        "overlay": "overlays/job_policy.yaml",
        "overlay_sha256": SHA,
        "approval_plan_sha256": None,
        "approval_principal": None,
    },
    "reconciliation": {
        **COMMON,
        "event": "reconciliation",
        "ticket": "INC-1",
        "outcome": "mismatch",
        "evidence": "12 invoices captured twice in the settlement report",
        "batches": 1,
    },
    "observation": {
        **{key: COMMON[key] for key in ("format", "actor", "actor_from", "version")},
        "event": "observation",
        "command": "show",
        "job": "billing.tasks.capture_invoice",
        "filters": {},
        "jobs_shown": 1,
        "ledger_sha256": "0" * 64,
        "overlay_sha256": None,
    },
    "refusal": {
        **{key: COMMON[key] for key in ("format", "actor", "actor_from", "version")},
        "event": "refusal",
        "command": "verdict",
        "job": "capture_invoice",
        "known_job": False,
        "action": "retry",
        "count": None,
        "ticket": None,
        "reason": "no job capture_invoice in generated/job_ledger.json",
    },
}
#: (kind, a change that breaks it, what the refusal names)
BROKEN: list[tuple[str, dict[str, Any], str]] = [
    ("verdict", {"verdict": "yes"}, "verdict"),
    ("verdict", {"ledger_sha256": "not a digest"}, "ledger_sha256"),
    ("plan", {"count": 0}, "count"),
    ("approval-check", {"verified": "true"}, "verified"),
    ("reconciliation", {"outcome": "fine"}, "outcome"),
    ("reconciliation", {"evidence": ""}, "evidence"),
    ("reconciliation", {"approve": "everything"}, "approve"),
    ("observation", {"command": "verdict"}, "command"),
    ("refusal", {"reason": ""}, "reason"),
    ("unknown", {}, "event kind"),
]


def test_every_kind_has_a_packaged_schema_that_is_itself_valid() -> None:
    for kind in events.KINDS:
        text = resources.files("pytest_jobledger").joinpath(events.schema_resource(kind))
        schema = json.loads(text.read_text("utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["properties"]["event"] == {"const": kind}
        assert events.problems(VALID[kind]) == [], kind


def test_the_schemas_are_package_data() -> None:
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text("utf-8")
    assert '"schemas/*.json"' in pyproject


@pytest.mark.parametrize(
    ("kind", "change", "names"), BROKEN, ids=[f"{b[0]}-{b[2]}" for b in BROKEN]
)
def test_a_record_off_its_schema_is_never_appended(
    backend: Backend, kind: str, change: dict[str, Any], names: str
) -> None:
    store = backend.store()
    events.append_event(store, VALID["plan"])
    record = {**VALID.get(kind, VALID["verdict"]), **change}
    if kind == "unknown":
        record["event"] = "approve-all"
    with pytest.raises(audit.AuditError, match="nothing was appended") as caught:
        events.append_event(store, record)
    assert names in str(caught.value)
    assert [line.number for line in store.lines()] == [1]
    assert store.verify().ok


def test_every_valid_event_appends_on_every_store(backend: Backend) -> None:
    store = backend.store()
    for kind in events.KINDS:
        events.append_event(store, VALID[kind])
    kinds = [line.record["event"] for line in store.lines() if line.record is not None]
    assert kinds == list(events.KINDS)
    assert store.verify().ok


CRASH = """
import os, sys
from pathlib import Path
from pytest_jobledger.audit import events, log, open_store

def crash(*args, **kwargs):
    os._exit(9)  # killed after the line's fsync, before the head's rename

root = Path(sys.argv[1])
store = open_store(".jobledger/audit.ndjson", root=root)
log.atomic_write = crash
events.append_event(store, {record})
"""


def test_a_crash_between_the_line_and_the_head_is_recovered_by_the_next_append(
    tmp_path: Path,
) -> None:
    """A real process dies between the two writes; the next append takes its line back, and
    ``--verify`` reads the trail as intact, not as tampered with."""
    store = audit.open_store(".jobledger/audit.ndjson", root=tmp_path)
    events.append_event(store, VALID["plan"])
    script = CRASH.format(record=repr(VALID["verdict"]))
    child = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)],
        capture_output=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert child.returncode == 9, child.stderr
    log_path = tmp_path / ".jobledger" / "audit.ndjson"
    assert len(log_path.read_bytes().splitlines()) == 2  # the line is there, past the head
    report = store.verify()
    assert report.ok
    assert "past the head" in report.note
    line = events.append_event(store, VALID["reconciliation"])
    assert line.number == 2
    assert [entry.record["event"] for entry in store.lines() if entry.record] == [
        "plan",
        "reconciliation",
    ]
    report = store.verify()
    assert (report.ok, report.lines, report.note) == (True, 2, "")


def test_an_append_after_the_trail_moved_is_refused_on_every_store(backend: Backend) -> None:
    """A verdict reads the trail (its approved counts) and then appends; when another operator
    appended an event that changes what it read, nothing is appended; any other event is no
    reason to refuse (eight operators on eight jobs never wait on each other)."""
    store = backend.store()
    read = len(store.lines())
    seen: list[list[Any]] = []

    def changes(new: Any) -> bool:
        seen.append([record["event"] for record in new])
        return any(record["event"] == "reconciliation" for record in new)

    since = audit.Since(read, changes)
    events.append_event(store, VALID["plan"], expect=since)  # nothing new: no question asked
    events.append_event(store, VALID["verdict"], expect=since)  # a plan came: no change
    events.append_event(store, VALID["reconciliation"])  # another operator's
    with pytest.raises(audit.AuditError, match="nothing was appended; ask again"):
        events.append_event(store, VALID["verdict"], expect=since)
    assert seen == [["plan"], ["plan", "verdict", "reconciliation"]]
    assert [line.number for line in store.lines()] == [1, 2, 3]
    assert store.verify().ok
