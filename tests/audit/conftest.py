"""The three stores the trail runs on, as real engines: a file, SQLite from the standard library,
and a PostgreSQL server this test session starts from the ``pgserver`` wheel (test extras).

The server starts once per test process (each xdist worker has its own); every test gets a
database of its own. If the server cannot start, the tests that need it fail loudly: nothing is
skipped, so a green run always means PostgreSQL was exercised.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
import uuid
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pytest_jobledger import audit

BACKENDS = ("file", "sqlite", "postgresql")
EVENTS = "jobledger_audit_events"


@dataclass(frozen=True)
class Postgres:
    """The session's server: its superuser URI (no password: trust on a private socket)."""

    uri: str

    def fresh_database(self) -> str:
        name = f"t_{uuid.uuid4().hex[:16]}"
        with pg_connect(self.uri) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.database(name)

    def database(self, name: str) -> str:
        base, _, query = self.uri.partition("?")
        return f"{base.rsplit('/', 1)[0]}/{name}?{query}"

    def as_user(self, url: str, user: str) -> str:
        scheme, _, rest = url.partition("://")
        return f"{scheme}://{user}@{rest.split('@', 1)[1]}"


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """A real PostgreSQL for this test process. As root, pgserver runs the server as a system
    user of its own (it creates ``pgserver`` with useradd), which works in CI's container."""
    with warnings.catch_warnings():
        # platformdirs warns that XDG_RUNTIME_DIR is unset (CI containers): not our concern.
        warnings.simplefilter("ignore")
        import pgserver

        try:
            # Not under pytest's basetemp: pytest resets its folder to 0700 at every session
            # start (any concurrent session too), and the server's own user must traverse the
            # path. The teardown stops the server and deletes the folder.
            data = Path(tempfile.mkdtemp(prefix="jobledger-test-pg-"))
            server = pgserver.get_server(data, cleanup_mode=None)
            uri = server.get_uri()
        except Exception as exc:  # pragma: no cover - the loud failure the docstring promises
            pytest.fail(f"the test PostgreSQL (pgserver) could not start: {exc!r}")
    try:
        yield Postgres(uri)
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from pgserver._commands import pg_ctl

            # An immediate stop (the data is thrown away next): a clean one waits seconds for
            # a checkpoint.
            try:
                pg_ctl(["-w", "-m", "immediate", "stop"], pgdata=data, user=server.system_user)
            finally:
                shutil.rmtree(data, ignore_errors=True)


def pg_connect(url: str) -> Any:
    import psycopg

    return psycopg.connect(url, autocommit=True)


@pytest.fixture
def pg_url(postgres: Postgres) -> str:
    """A schema of its own on the session's server (cheaper than a database: no template copy),
    as its superuser (the store's owner); the URL's ``options`` puts it first on search_path."""
    name = f"t_{uuid.uuid4().hex[:16]}"
    with pg_connect(postgres.uri) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    return f"{postgres.uri}&options=-csearch_path%3D{name}"


@dataclass(frozen=True)
class Backend:
    """One store under test, and the owner's means of tampering with it behind the tool's back
    (a file edited in place; SQL run with the engine's triggers switched off by their owner)."""

    kind: str
    root: Path
    url: str

    def store(self) -> audit.Store:
        return audit.open_store(
            ".jobledger/audit.ndjson", root=self.root, env={audit.ENV_URL: self.url}
        )

    @property
    def log(self) -> Path:
        return self.root / self.url

    def sql(self, *statements: str) -> None:
        """Run ``statements`` as the store's owner with the append-only triggers off."""
        if self.kind == "sqlite":
            conn = sqlite3.connect(self.root / self.url.removeprefix("sqlite:///"))
            for trigger in ("no_update", "no_delete"):
                conn.execute(f"DROP TRIGGER IF EXISTS jobledger_audit_{trigger}")
            for statement in statements:
                conn.execute(statement)
            conn.commit()
            conn.close()
            return
        with pg_connect(self.url) as conn:
            conn.execute(f"ALTER TABLE {EVENTS} DISABLE TRIGGER USER")
            for statement in statements:
                conn.execute(statement)
            conn.execute(f"ALTER TABLE {EVENTS} ENABLE TRIGGER USER")

    def _file_lines(self) -> list[bytes]:
        return self.log.read_bytes().split(b"\n")[:-1]

    def _write_lines(self, lines: list[bytes]) -> None:
        self.log.write_bytes(b"".join(line + b"\n" for line in lines))

    def edit(self, number: int) -> None:
        if self.kind == "file":
            lines = self._file_lines()
            lines[number - 1] = lines[number - 1].replace(b'"job": "', b'"job": "x')
            self._write_lines(lines)
        else:
            self.sql(
                f'UPDATE {EVENTS} SET line = replace(line, \'"job": "\', \'"job": "x\') '
                f"WHERE seq = {number}"
            )

    def delete(self, number: int) -> None:
        if self.kind == "file":
            lines = self._file_lines()
            del lines[number - 1]
            self._write_lines(lines)
        else:
            self.sql(f"DELETE FROM {EVENTS} WHERE seq = {number}")

    def swap(self, one: int, two: int) -> None:
        if self.kind == "file":
            lines = self._file_lines()
            lines[one - 1], lines[two - 1] = lines[two - 1], lines[one - 1]
            self._write_lines(lines)
        else:
            self.sql(
                f"UPDATE {EVENTS} SET seq = 1000000 WHERE seq = {one}",
                f"UPDATE {EVENTS} SET seq = {one} WHERE seq = {two}",
                f"UPDATE {EVENTS} SET seq = {two} WHERE seq = 1000000",
            )

    def cut(self, count: int) -> None:
        """Remove the last ``count`` events, as someone covering a verdict would."""
        if self.kind == "file":
            self._write_lines(self._file_lines()[:-count])
        else:
            self.sql(f"DELETE FROM {EVENTS} WHERE seq > (SELECT max(seq) - {count} FROM {EVENTS})")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """Each store, initialised (``audit init``) and empty."""
    kind = request.param
    if kind == "file":
        made = Backend(kind, tmp_path, ".jobledger/audit.ndjson")
    elif kind == "sqlite":
        made = Backend(kind, tmp_path, "sqlite:///.jobledger/audit.db")
    else:
        made = Backend(kind, tmp_path, request.getfixturevalue("pg_url"))
    made.store().init()
    return made
