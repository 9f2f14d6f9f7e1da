"""One suite for every store (file, SQLite, PostgreSQL), against the real engines: the same chain,
appends that never fork it from eight processes at once, a killed append that leaves it whole,
tampering found by ``--verify`` (an edited, deleted or reordered event, a cut tail), and the
engines' own refusal of UPDATE and DELETE."""

from __future__ import annotations

import itertools
import json
import os
import signal
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from pytest_jobledger import audit
from pytest_jobledger.cli import main

from .conftest import Backend, Postgres, pg_connect
from .test_concurrency import released_together

PROCESSES = 8
ROUNDS = 20
CLOCK = "2025-06-01T09:30:00.000Z"

APPENDER = """
import sys
from pathlib import Path
from pytest_jobledger import audit
root, url, worker, times = Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
store = audit.open_store(".jobledger/audit.ndjson", root=root, env={audit.ENV_URL: url})
print("ready", flush=True)
sys.stdin.read(1)
for index in range(times):
    store.append({"worker": worker, "index": index})
"""

# Stops an append at its last moment before the commit (the file: the line fsynced, the head not
# renamed; a database: the event inserted, the transaction open), says so, and waits to be killed.
KILLED = """
import sys, time
from pathlib import Path
from pytest_jobledger import audit
from pytest_jobledger.audit import log, sql as stores
root, url = Path(sys.argv[1]), sys.argv[2]
def stall(*args, **kwargs):
    print("stalled", flush=True)
    time.sleep(600)
real_insert = stores._SqlStore._insert
def insert_then_stall(self, *args):
    real_insert(self, *args)
    stall()
log.atomic_write = stall
stores._SqlStore._insert = insert_then_stall
audit.open_store(".jobledger/audit.ndjson", root=root, env={audit.ENV_URL: url}).append(
    {"job": "never-given"}
)
"""


def add(store: audit.Store, count: int) -> list[audit.Line]:
    return [store.append({"job": f"j{n}", "n": n}, clock=lambda: CLOCK) for n in range(count)]


def test_events_chain_from_the_genesis_value_and_verify(backend: Backend) -> None:
    store = backend.store()
    made = add(store, 4)
    lines = store.lines()
    assert [line.number for line in lines] == [1, 2, 3, 4] == [line.number for line in made]
    assert [line.sha256 for line in lines] == [line.sha256 for line in made]
    records = [line.record or {} for line in lines]
    assert records[0]["prev"] == audit.GENESIS
    for before, after in itertools.pairwise(lines):
        assert (after.record or {})["prev"] == before.sha256
    report = store.verify()
    assert (report.ok, report.lines, report.head, report.note) == (True, 4, made[-1].sha256, "")


def test_the_same_record_is_the_same_line_on_every_store(backend: Backend) -> None:
    """The chain is the store's format, not the engine's: a copy moves lines verbatim."""
    (line,) = add(backend.store(), 1)
    assert line.sha256 == audit.chain.line_sha256(
        audit.chain.encode({"job": "j0", "n": 0, "prev": audit.GENESIS, "time": CLOCK})
    )


def test_a_record_cannot_bring_its_own_prev(backend: Backend) -> None:
    with pytest.raises(ValueError, match="prev"):
        backend.store().append({"prev": audit.GENESIS})


@pytest.mark.parametrize(
    ("tamper", "broken", "says"),
    [
        (lambda b: b.edit(2), 2, "line 2 was edited"),
        (lambda b: b.delete(2), 1, "lines after it were removed"),
        (lambda b: b.swap(2, 3), 2, "lines were reordered"),
        (lambda b: b.cut(1), 4, "line 4 is missing"),
        (lambda b: b.cut(2), 3, "so lines were removed from the end"),
    ],
    ids=["edited", "deleted", "reordered", "cut-one", "cut-two"],
)
def test_verify_finds_tampering(backend: Backend, tamper: object, broken: int, says: str) -> None:
    store = backend.store()
    add(store, 4)
    tamper(backend)  # type: ignore[operator]
    report = store.verify()
    assert not report.ok
    assert (report.broken, says in report.reason) == (broken, True), report


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"], indirect=True)
@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE jobledger_audit_events SET line = 'x'",
        "DELETE FROM jobledger_audit_events",
        "DELETE FROM jobledger_audit_head",
        "INSERT INTO jobledger_audit_events (seq, prev, sha256, line) VALUES (3, 'p', 's', '{}')",
    ],
    ids=["update", "delete", "delete-head", "insert-off-chain"],
)
def test_the_engine_refuses_what_is_not_an_append(backend: Backend, statement: str) -> None:
    store = backend.store()
    add(store, 2)
    if backend.kind == "sqlite":
        with (
            sqlite3.connect(backend.root / ".jobledger/audit.db") as conn,
            pytest.raises(sqlite3.IntegrityError, match="jobledger audit: "),
        ):
            conn.execute(statement)
    else:
        with pg_connect(backend.url) as conn, pytest.raises(Exception, match="jobledger audit: "):
            conn.execute(statement)
    assert store.verify().ok
    assert len(store.lines()) == 2


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_postgres_refuses_truncate_and_a_head_rewrite(backend: Backend) -> None:
    add(backend.store(), 1)
    for statement in (
        "TRUNCATE jobledger_audit_events",
        "TRUNCATE jobledger_audit_head",
        "UPDATE jobledger_audit_head SET lines = 0",
    ):
        with pg_connect(backend.url) as conn, pytest.raises(Exception, match="append-only"):
            conn.execute(statement)
    assert backend.store().verify().lines == 1


def test_eight_processes_appending_at_once_never_fork_the_chain(backend: Backend) -> None:
    commands = [
        [sys.executable, "-c", APPENDER, str(backend.root), backend.url, str(w), str(ROUNDS)]
        for w in range(PROCESSES)
    ]
    for result in released_together(commands):
        assert result.returncode == 0, result.stderr
    store = backend.store()
    lines = store.lines()
    assert len(lines) == PROCESSES * ROUNDS
    assert Counter((line.record or {})["worker"] for line in lines) == {
        str(w): ROUNDS for w in range(PROCESSES)
    }
    for worker in range(PROCESSES):
        mine = [line.record["index"] for line in lines if line.record["worker"] == str(worker)]
        assert mine == list(range(ROUNDS))
    assert len({(line.record or {})["prev"] for line in lines}) == len(lines)  # no fork
    report = store.verify()
    assert (report.ok, report.lines, report.note) == (True, PROCESSES * ROUNDS, "")


def test_a_killed_append_leaves_the_chain_whole(backend: Backend) -> None:
    store = backend.store()
    add(store, 2)
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED, str(backend.root), backend.url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "stalled\n", child.stderr and child.stderr.read()
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.communicate()
    report = store.verify()
    assert report.ok, report
    committed = [line for line in store.lines() if line.committed]
    assert [line.number for line in committed] == [1, 2]
    third = store.append({"job": "next"})
    assert third.number == 3
    assert [(line.record or {})["job"] for line in store.lines()] == ["j0", "j1", "next"]
    after = store.verify()
    assert (after.ok, after.lines, after.note) == (True, 3, "")


def test_init_is_idempotent(backend: Backend) -> None:
    store = backend.store()
    add(store, 1)
    said = store.init()
    assert ("nothing to do" in said) or ("needs no set-up" in said)
    assert store.verify().lines == 1


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"], indirect=True)
def test_a_newer_layout_is_refused(backend: Backend) -> None:
    statement = "INSERT INTO jobledger_audit_schema (version, applied_at) VALUES (99, '2030-01-01')"
    if backend.kind == "sqlite":
        backend.sql(statement)
    else:
        with pg_connect(backend.url) as conn:
            conn.execute(statement)
    with pytest.raises(audit.AuditError, match="layout 99, newer than this jobledger"):
        backend.store().append({"job": "x"})


def test_postgres_without_tables_asks_for_init(pg_url: str, tmp_path: Path) -> None:
    store = audit.open_store("x", root=tmp_path, env={audit.ENV_URL: pg_url})
    with pytest.raises(audit.AuditError, match="run `jobledger audit init` once"):
        store.append({"job": "x"})
    with pytest.raises(audit.AuditError, match="run `jobledger audit init` once"):
        store.verify()


def test_an_unreachable_store_fails_closed_and_never_prints_the_password(tmp_path: Path) -> None:
    url = "postgresql://ops:s3cret-pw@127.0.0.1:1/trail?password=s3cret-pw&connect_timeout=2"
    store = audit.open_store("x", root=tmp_path, env={audit.ENV_URL: url})
    assert "s3cret" not in store.display
    with pytest.raises(audit.AuditError) as caught:
        store.append({"job": "x"})
    assert "cannot append to the audit store" in str(caught.value)
    assert "s3cret" not in str(caught.value)


def test_postgres_operators_with_the_readme_grants_may_only_append(
    backend_pg_operator: tuple[Backend, str],
) -> None:
    backend, operator_url = backend_pg_operator
    operator = audit.open_store("x", root=backend.root, env={audit.ENV_URL: operator_url})
    assert operator.append({"job": "by-operator"}).number == 1
    assert operator.verify().ok
    for statement in (
        "UPDATE jobledger_audit_events SET line = 'x'",
        "DELETE FROM jobledger_audit_events",
        "UPDATE jobledger_audit_head SET lines = 0",
        "ALTER TABLE jobledger_audit_events DISABLE TRIGGER USER",
        "DROP TABLE jobledger_audit_events",
    ):
        with (
            pg_connect(operator_url) as conn,
            pytest.raises(Exception, match=r"permission denied|must be owner"),
        ):
            conn.execute(statement)
    assert operator.verify().lines == 1


@pytest.fixture
def backend_pg_operator(postgres: Postgres, tmp_path: Path) -> tuple[Backend, str]:
    """A PostgreSQL store set up by its owner, and an operator role given exactly the README's
    GRANTs (read from the README, so the document and the test cannot drift apart)."""
    backend = Backend("postgresql", tmp_path, postgres.fresh_database())
    backend.store().init()
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    grants = [line for line in readme.splitlines() if line.startswith("GRANT ")]
    assert len(grants) == 2, grants
    with pg_connect(backend.url) as conn:
        conn.execute("DROP ROLE IF EXISTS jobledger_operators")
        conn.execute("CREATE ROLE jobledger_operators")
        conn.execute("DROP ROLE IF EXISTS alice")
        conn.execute("CREATE ROLE alice LOGIN IN ROLE jobledger_operators")
        for grant in grants:
            conn.execute(grant)
    return backend, postgres.as_user(backend.url, "alice")


def test_copy_moves_a_file_trail_into_a_store_verified_on_both_sides(
    backend: Backend, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = backend.root / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text("[tool.jobledger]\naudit_log = 'ops/trail.ndjson'\n")
    source = audit.open_store("ops/trail.ndjson", root=root, env={})
    made = add(source, 3)
    url = {"file": "copied/trail.ndjson", "sqlite": "sqlite:///copied.db"}.get(
        backend.kind, backend.url
    )
    monkeypatch.setenv(audit.ENV_URL, url)
    assert main(["audit", "copy", "--root", str(root)]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "copied 3 events from ops/trail.ndjson; chain verified on both sides" in out
    assert made[-1].sha256 in out
    target = audit.open_store("x", root=root, env={audit.ENV_URL: url})
    assert [line.sha256 for line in target.lines()] == [line.sha256 for line in made]
    # A second copy would merge two trails: refused, nothing written.
    assert main(["audit", "copy", "--root", str(root)]) == 2
    assert "copy into" in capsys.readouterr().err
    assert len(target.lines()) == 3
    # ... and `audit --verify` now reads the store the environment names.
    assert main(["audit", "--verify", "--root", str(root)]) == 0
    assert f"3 lines, chain intact; head sha256 {made[-1].sha256}" in capsys.readouterr().out


def test_a_broken_trail_is_not_copied(backend: Backend, capsys: pytest.CaptureFixture[str]) -> None:
    root = backend.root / "project"
    root.mkdir()
    source = audit.open_store(".jobledger/audit.ndjson", root=root, env={})
    add(source, 2)
    log = root / ".jobledger" / "audit.ndjson"
    log.write_bytes(log.read_bytes().replace(b'"j0"', b'"j9"'))
    to = backend.url if backend.kind != "sqlite" else "sqlite:///copy.db"
    if backend.kind == "file":
        to = "copy.ndjson"
    assert main(["audit", "copy", "--root", str(root), "--to", to]) == 2
    err = capsys.readouterr().err
    assert "the trail is broken at line 1" in err
    assert "nothing was copied" in err


def test_verify_and_json_on_the_command_line(
    backend: Backend, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(audit.ENV_URL, backend.url)
    made = add(backend.store(), 2)
    assert main(["audit", "--root", str(backend.root), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert [entry["sha256"] for entry in document["entries"]] == [m.sha256 for m in made]
    assert main(["audit", "init", "--root", str(backend.root)]) == 0
    capsys.readouterr()
    backend.cut(1)
    assert main(["audit", "--verify", "--root", str(backend.root)]) == 1
    assert "line 2 is missing" in capsys.readouterr().out
