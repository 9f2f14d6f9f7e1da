"""The committed ledger as the gate and the stub read it: each way it can be wrong, in its words."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_jobledger.findings import Kind
from pytest_jobledger.ledger.model import Job, Ledger
from pytest_jobledger.project import Config
from pytest_jobledger.session import evaluate, read_committed

LEDGER = Ledger.build(
    [
        Job(
            id="acme.tasks.capture",
            function="capture",
            module="acme.tasks",
            path="src/acme/tasks.py",
            line=4,
            framework="celery",
            decorator="celery.shared_task",
        )
    ]
)

BROKEN: dict[str, tuple[bytes, str]] = {
    "deep_nesting": (b"[" * 100_000, "nest too deeply to be a ledger"),
    "merge_conflict": (b'<<<<<<< HEAD\n{"jobs": []}\n=======\n', "not valid JSON (line 1"),
    "not_utf8": (b'{"jobs": [], "x": "caf\xe9"}\n', "not UTF-8 text (line 1)"),
    "not_a_ledger": (b'{"name": "package.json, probably"}\n', "JSON but not a ledger"),
    "wrong_rows": (b'{"schema_version": 7, "jobs": [1, 2]}\n', "schema_version 7"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_broken_committed_ledger_is_described_not_a_crash(tmp_path: Path, name: str) -> None:
    raw, says = BROKEN[name]
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "job_ledger.json").write_bytes(raw)
    read = read_committed(Config(root=tmp_path))
    ledger, problem = read.ledger, read.unreadable or read.problem
    assert ledger is None
    assert problem is not None
    assert says in problem
    status = [f for f in evaluate(Config(root=tmp_path), ledger=LEDGER).findings if f.cell]
    [stale] = [f for f in status if f.kind is Kind.LEDGER_STALE]
    assert says in stale.message
    assert "Traceback" not in stale.message


def test_an_unreadable_ledger_is_not_called_edited(tmp_path: Path) -> None:
    (tmp_path / "generated" / "job_ledger.json").mkdir(parents=True)
    [stale] = [
        f
        for f in evaluate(Config(root=tmp_path), ledger=LEDGER).findings
        if f.kind is Kind.LEDGER_STALE
    ]
    assert "cannot be read" in stale.message
    assert "a folder, not a regular file" in stale.message
    assert "by hand" not in stale.message
