"""The trail in a database: SQLite (one host) or PostgreSQL (many), one chain as in the file.

- ``sqlite:///PATH``: WAL, a busy timeout, ``BEGIN IMMEDIATE`` per append (SQLite's one writer at
  a time), the head row advanced by a trigger in the same transaction;
- ``postgresql://...``: each append takes ``pg_advisory_xact_lock`` before it reads the head
  (why not SERIALIZABLE: :mod:`.store`); a ``SECURITY DEFINER`` trigger refuses any event that
  does not continue the head, and triggers refuse UPDATE, DELETE and TRUNCATE.

Loaded only when a store is a database, so a file trail never imports sqlite3 or psycopg.
"""

from __future__ import annotations

import os
import sqlite3
import urllib.parse
from abc import abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from ..core.atomic import make_folder, open_append
from ..core.paths import outside_reason
from .chain import GENESIS, AuditError, encode, encode_head, line_sha256, parse_record
from .log import LOCK_TIMEOUT_S, Line, Since, moved, utc_now
from .store import Store, check_record
from .verify import Report, check_chain
from .where import Target, is_secret_key

#: The tables' layout; ``audit init`` records it, and a store of a newer layout is refused.
SCHEMA_VERSION = 1

_EVENTS = "jobledger_audit_events"
_HEAD = "jobledger_audit_head"
_SCHEMA = "jobledger_audit_schema"


class _SqlStore(Store):
    """What SQLite and PostgreSQL share: the tables, the append, the read, the check."""

    #: The driver's placeholder (``?`` or ``%s``).
    mark = "?"

    @abstractmethod
    def _connection(self) -> Any:
        """A new connection, or an AuditError naming the store (never its password)."""

    @abstractmethod
    def _begin_append(self, conn: Any) -> None:
        """Start the append's transaction and take the store's write lock."""

    @abstractmethod
    def _create(self, conn: Any) -> None:
        """Create the tables, triggers and the version row (inside the caller's transaction)."""

    @abstractmethod
    def _errors(self) -> tuple[type[BaseException], ...]:
        """The driver's error classes, each turned into an AuditError."""

    def _sql(self, text: str) -> str:
        return text.replace("?", self.mark)

    @contextmanager
    def _guard(self, verb: str) -> Iterator[None]:
        try:
            yield
        except AuditError:
            raise
        except self._errors() as exc:
            raise AuditError(
                f"cannot {verb} the audit store: {self._scrub(str(exc).strip())}",
                path=self.display,
            ) from None

    def _scrub(self, text: str) -> str:
        """A driver's message with the store's password (if any) taken out."""
        with suppress(ValueError):
            parts = urllib.parse.urlsplit(self.target.location)
            query = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
            secrets = [value for key, value in query if is_secret_key(key)]
            for secret in (parts.password, *secrets):
                if secret:
                    text = text.replace(secret, "***")
        return text.replace(self.target.location, self.display)

    def _version(self, conn: Any) -> int | None:
        """The recorded layout, ``None`` when the tables were never made."""
        if not self._has_table(conn, _SCHEMA):
            return None
        row = conn.execute(f"SELECT max(version) FROM {_SCHEMA}").fetchone()
        version = row[0] if row else None
        if version is not None and version > SCHEMA_VERSION:
            raise AuditError(
                f"the store's tables are layout {version}, newer than this jobledger knows "
                f"({SCHEMA_VERSION}): upgrade jobledger",
                path=self.display,
            )
        return int(version) if version is not None else None

    @abstractmethod
    def _has_table(self, conn: Any, name: str) -> bool: ...

    def _require(self, conn: Any) -> None:
        if self._version(conn) is None:
            self._missing_tables()

    def _missing_tables(self) -> None:
        """A store without tables: PostgreSQL's owner must run ``init`` (a SQLite file that was
        never written to simply holds no events yet)."""
        raise AuditError(
            "the store has no jobledger tables yet: run `jobledger audit init` once, as "
            "the store's owner",
            path=self.display,
        )

    def _head(self, conn: Any) -> tuple[int, str]:
        row = conn.execute(f"SELECT lines, sha256 FROM {_HEAD}").fetchone()
        if row is None:
            raise AuditError("the store's head row is missing", path=self.display)
        return int(row[0]), str(row[1])

    def _insert(self, conn: Any, seq: int, raw: bytes) -> None:
        record = parse_record(raw) or {}
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise AuditError(
                f"line {seq} is not UTF-8 text, so a database cannot hold it as it is; nothing "
                "was written",
                path=self.display,
            ) from None
        conn.execute(
            self._sql(f"INSERT INTO {_EVENTS} (seq, prev, sha256, line) VALUES (?, ?, ?, ?)"),
            (seq, str(record.get("prev", "")), line_sha256(raw), text),
        )

    def append(
        self,
        record: Mapping[str, Any],
        *,
        clock: Callable[[], str] = utc_now,
        expect: Since | None = None,
    ) -> Line:
        check_record(record)
        with self._guard("append to"):
            conn = self._connection()
            try:
                self._begin_append(conn)
                self._require(conn)
                count, last = self._head(conn)
                if expect is not None and count != expect.lines:
                    rows = conn.execute(
                        self._sql(f"SELECT line FROM {_EVENTS} WHERE seq > ? ORDER BY seq"),
                        (expect.lines,),
                    ).fetchall()
                    if expect.changes([parse_record(str(row[0]).encode()) for row in rows]):
                        raise moved(count, expect.lines, self.display)
                raw = encode({**record, "time": clock(), "prev": last}).removesuffix(b"\n")
                self._insert(conn, count + 1, raw)
                conn.commit()
            except BaseException:
                with suppress(Exception):
                    conn.rollback()
                raise
            finally:
                conn.close()
        return Line(count + 1, line_sha256(raw), parse_record(raw))

    def _rows(self) -> tuple[list[tuple[int, str]], tuple[int, str]]:
        """Every event's (seq, line) in seq order and the head, from one snapshot."""
        with self._guard("read"):
            conn = self._connection()
            try:
                self._begin_read(conn)
                if self._version(conn) is None:
                    self._missing_tables()
                    return [], (0, GENESIS)
                rows = conn.execute(f"SELECT seq, line FROM {_EVENTS} ORDER BY seq").fetchall()
                head = self._head(conn)
                conn.rollback()
            finally:
                conn.close()
        return [(int(seq), str(line)) for seq, line in rows], head

    def _begin_read(self, conn: Any) -> None:
        """Start a transaction whose reads all see one moment."""

    def raw(self) -> list[bytes]:
        rows, _ = self._rows()
        return [text.encode() for _, text in rows]

    def lines(self) -> list[Line]:
        rows, _ = self._rows()
        return [
            Line(seq, line_sha256(text.encode()), parse_record(text.encode())) for seq, text in rows
        ]

    def verify(self) -> Report:
        rows, (count, sha) = self._rows()
        data = b"".join(text.encode() + b"\n" for _, text in rows)
        report = check_chain(data, encode_head(count, sha).encode(), "the head row")
        if report.ok and report.lines != count:
            return Report(
                report.lines,
                report.head,
                count + 1,
                f"event {count + 1} is past the head row (which records {count} events and "
                "moves in the same transaction as every append): it was added behind the "
                "store's back",
            )
        return report

    def init(self) -> str:
        with self._guard("initialise"):
            conn = self._connection()
            try:
                self._begin_append(conn)
                version = self._version(conn)
                if version == SCHEMA_VERSION:
                    conn.rollback()
                    return f"the store already holds layout {SCHEMA_VERSION}; nothing to do"
                self._create(conn)
                conn.commit()
            except BaseException:
                with suppress(Exception):
                    conn.rollback()
                raise
            finally:
                conn.close()
        return f"created the audit tables (layout {SCHEMA_VERSION})"

    def load(self, raw: Sequence[bytes]) -> None:
        with self._guard("copy into"):
            conn = self._connection()
            try:
                self._begin_append(conn)
                self._require(conn)
                count, _ = self._head(conn)
                if count:
                    raise AuditError(
                        f"the store already holds {count} events: copy into an empty store",
                        path=self.display,
                    )
                for seq, line in enumerate(raw, 1):
                    self._insert(conn, seq, line)
                conn.commit()
            except BaseException:
                with suppress(Exception):
                    conn.rollback()
                raise
            finally:
                conn.close()


_SQLITE_TABLES = f"""
CREATE TABLE IF NOT EXISTS {_SCHEMA} (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS {_EVENTS} (
    seq INTEGER PRIMARY KEY CHECK (seq >= 1),
    prev TEXT NOT NULL UNIQUE,
    sha256 TEXT NOT NULL UNIQUE,
    line TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS {_HEAD} (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    lines INTEGER NOT NULL,
    sha256 TEXT NOT NULL
);
INSERT OR IGNORE INTO {_HEAD} (one, lines, sha256) VALUES (1, 0, '{GENESIS}');
CREATE TRIGGER IF NOT EXISTS jobledger_audit_chain BEFORE INSERT ON {_EVENTS}
BEGIN
    SELECT RAISE(ABORT, 'jobledger audit: the event does not continue the chain')
    WHERE NEW.seq <> (SELECT lines FROM {_HEAD}) + 1 OR NEW.prev <> (SELECT sha256 FROM {_HEAD});
END;
CREATE TRIGGER IF NOT EXISTS jobledger_audit_advance AFTER INSERT ON {_EVENTS}
BEGIN
    UPDATE {_HEAD} SET lines = NEW.seq, sha256 = NEW.sha256;
END;
CREATE TRIGGER IF NOT EXISTS jobledger_audit_no_update BEFORE UPDATE ON {_EVENTS}
BEGIN
    SELECT RAISE(ABORT, 'jobledger audit: the trail is append-only (UPDATE refused)');
END;
CREATE TRIGGER IF NOT EXISTS jobledger_audit_no_delete BEFORE DELETE ON {_EVENTS}
BEGIN
    SELECT RAISE(ABORT, 'jobledger audit: the trail is append-only (DELETE refused)');
END;
CREATE TRIGGER IF NOT EXISTS jobledger_audit_head_kept BEFORE DELETE ON {_HEAD}
BEGIN
    SELECT RAISE(ABORT, 'jobledger audit: the head row is kept (DELETE refused)');
END;
"""


class SqliteStore(_SqlStore):
    """One host: a SQLite file in WAL mode; the first append creates the tables (on one host
    the operator owns the file, so there is no one else to run ``init``)."""

    def __init__(self, target: Target, root: Path) -> None:
        super().__init__(target)
        path = Path(target.location)
        self.path = path if path.is_absolute() else root / path
        self.root = root

    def _errors(self) -> tuple[type[BaseException], ...]:
        return (sqlite3.Error, OSError)

    def _connection(self) -> sqlite3.Connection:
        if not Path(self.target.location).is_absolute():
            reason = outside_reason(self.path, self.root)
            if reason is not None:
                raise AuditError(f"{reason}; nothing was written", path=self.display)
            # The database file is made by the one writer (inside the root, no symlink on the
            # way, no .git, a regular file) before SQLite opens it; SQLite's -wal and -shm
            # files sit beside it, in the folder that writer checked.
            make_folder(self.path.parent, root=self.root)
            os.close(open_append(self.path, root=self.root))
        else:  # named by the operator in JOBLEDGER_AUDIT_URL, outside any project
            make_folder(self.path.parent)
        conn = sqlite3.connect(self.path, timeout=LOCK_TIMEOUT_S, isolation_level=None)
        conn.execute(f"PRAGMA busy_timeout = {int(LOCK_TIMEOUT_S * 1000)}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        return conn

    def _begin_append(self, conn: Any) -> None:
        conn.execute("BEGIN IMMEDIATE")

    def _require(self, conn: Any) -> None:
        if self._version(conn) is None:
            self._create(conn)

    def _begin_read(self, conn: Any) -> None:
        conn.execute("BEGIN")

    def _missing_tables(self) -> None:
        return None

    def _rows(self) -> tuple[list[tuple[int, str]], tuple[int, str]]:
        if not self.path.exists():
            return [], (0, GENESIS)
        return super()._rows()

    def _create(self, conn: Any) -> None:
        for statement in _statements(_SQLITE_TABLES):
            conn.execute(statement)
        conn.execute(
            f"INSERT OR IGNORE INTO {_SCHEMA} (version, applied_at) VALUES (?, ?)",
            (SCHEMA_VERSION, utc_now()),
        )

    def _has_table(self, conn: Any, name: str) -> bool:
        row = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
        ).fetchone()
        return row is not None


def _statements(script: str) -> list[str]:
    """``script`` split into statements (a trigger's body keeps its own semicolons)."""
    statements, current = [], ""
    for part in script.split(";"):
        current += part + ";"
        if sqlite3.complete_statement(current):
            if current.strip(" \n;"):
                statements.append(current.strip())
            current = ""
    return statements


_PG_TABLES = f"""
CREATE TABLE IF NOT EXISTS {_SCHEMA} (
    version integer PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS {_EVENTS} (
    seq bigint PRIMARY KEY CHECK (seq >= 1),
    prev text NOT NULL UNIQUE,
    sha256 text NOT NULL UNIQUE,
    line text NOT NULL
);
CREATE TABLE IF NOT EXISTS {_HEAD} (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    lines bigint NOT NULL,
    sha256 text NOT NULL
);
INSERT INTO {_HEAD} (one, lines, sha256) VALUES (true, 0, '{GENESIS}') ON CONFLICT DO NOTHING;
CREATE OR REPLACE FUNCTION jobledger_audit_chain() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, @SCHEMA@ AS $$
DECLARE
    h record;
BEGIN
    SELECT lines, sha256 INTO h FROM {_HEAD} FOR UPDATE;
    IF NEW.seq <> h.lines + 1 OR NEW.prev <> h.sha256
       OR NEW.sha256 <> encode(sha256(convert_to(NEW.line, 'UTF8')), 'hex') THEN
        RAISE EXCEPTION 'jobledger audit: event % does not continue the chain (the head '
            'records % events)', NEW.seq, h.lines;
    END IF;
    UPDATE {_HEAD} SET lines = NEW.seq, sha256 = NEW.sha256;
    RETURN NEW;
END $$;
CREATE OR REPLACE FUNCTION jobledger_audit_refuse() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = '{_HEAD}' AND TG_OP = 'UPDATE' AND pg_trigger_depth() > 1 THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'jobledger audit: the trail is append-only (% on % refused)',
        TG_OP, TG_TABLE_NAME;
END $$;
DROP TRIGGER IF EXISTS jobledger_audit_chain ON {_EVENTS};
CREATE TRIGGER jobledger_audit_chain BEFORE INSERT ON {_EVENTS}
    FOR EACH ROW EXECUTE FUNCTION jobledger_audit_chain();
DROP TRIGGER IF EXISTS jobledger_audit_no_change ON {_EVENTS};
CREATE TRIGGER jobledger_audit_no_change BEFORE UPDATE OR DELETE ON {_EVENTS}
    FOR EACH ROW EXECUTE FUNCTION jobledger_audit_refuse();
DROP TRIGGER IF EXISTS jobledger_audit_no_truncate ON {_EVENTS};
CREATE TRIGGER jobledger_audit_no_truncate BEFORE TRUNCATE ON {_EVENTS}
    FOR EACH STATEMENT EXECUTE FUNCTION jobledger_audit_refuse();
DROP TRIGGER IF EXISTS jobledger_audit_head_kept ON {_HEAD};
CREATE TRIGGER jobledger_audit_head_kept BEFORE UPDATE OR DELETE ON {_HEAD}
    FOR EACH ROW EXECUTE FUNCTION jobledger_audit_refuse();
DROP TRIGGER IF EXISTS jobledger_audit_head_no_truncate ON {_HEAD};
CREATE TRIGGER jobledger_audit_head_no_truncate BEFORE TRUNCATE ON {_HEAD}
    FOR EACH STATEMENT EXECUTE FUNCTION jobledger_audit_refuse();
INSERT INTO {_SCHEMA} (version) VALUES ({SCHEMA_VERSION}) ON CONFLICT DO NOTHING
"""

#: Every append and ``init`` of one schema's trail takes this transaction-scoped lock.
_PG_LOCK = f"SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.{_EVENTS}'))"


class PostgresStore(_SqlStore):
    """Many hosts: PostgreSQL through psycopg 3 (the ``postgres`` extra)."""

    mark = "%s"

    def _errors(self) -> tuple[type[BaseException], ...]:
        psycopg = _psycopg(self.display)
        return (psycopg.Error, OSError)

    def _connection(self) -> Any:
        psycopg = _psycopg(self.display)
        query = urllib.parse.urlsplit(self.target.location).query
        if "connect_timeout" in urllib.parse.parse_qs(query):
            return psycopg.connect(self.target.location)
        return psycopg.connect(self.target.location, connect_timeout=10)

    def _begin_append(self, conn: Any) -> None:
        conn.execute(f"SET LOCAL lock_timeout = '{int(LOCK_TIMEOUT_S * 1000)}ms'")
        conn.execute(_PG_LOCK)

    def _begin_read(self, conn: Any) -> None:
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")

    def _create(self, conn: Any) -> None:
        from psycopg import sql

        schema = conn.execute("SELECT current_schema()").fetchone()[0]
        if schema is None:
            raise AuditError(
                "the connection has no schema to create tables in (check search_path)",
                path=self.display,
            )
        quoted = sql.Identifier(schema).as_string(conn)
        conn.execute(_PG_TABLES.replace("@SCHEMA@", quoted))

    def _has_table(self, conn: Any, name: str) -> bool:
        row = conn.execute("SELECT to_regclass(%s)", (name,)).fetchone()
        return row is not None and row[0] is not None


def _psycopg(display: str) -> Any:
    try:
        import psycopg
    except ImportError:
        raise AuditError(
            "a postgresql:// store needs psycopg 3: pip install 'pytest-jobledger[postgres]'",
            path=display,
        ) from None
    return psycopg
