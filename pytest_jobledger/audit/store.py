"""Where the trail lives: a file in the checkout, a SQLite database, or PostgreSQL, one interface.

Every store keeps the same chain (:mod:`.chain`): an event is the same JSON line everywhere, its
``prev`` the sha256 of the event before it, computed while the append holds the store's lock, so
``--verify`` walks a database exactly as it walks a file, and ``audit copy`` moves lines verbatim.

- a plain path: today's file trail (:mod:`.log`), the folder's advisory lock (here);
- ``sqlite:///PATH`` (:mod:`.sql`, as PostgreSQL): one host; WAL, a busy timeout, ``BEGIN
  IMMEDIATE`` per append (SQLite's one writer at a time), the head row advanced by a trigger in
  the same transaction;
- ``postgresql://...``: many hosts; each append takes ``pg_advisory_xact_lock`` before it reads
  the head. Not SERIALIZABLE: there, two operators appending at once both read the same head and
  one of them fails with a serialization error that every client would have to retry (during an
  incident, eight laptops retrying each other). The advisory lock queues them instead, bounded by
  ``lock_timeout``, and ends with the transaction, so a killed client leaves no stale lock. A
  trigger (``SECURITY DEFINER``) refuses any event that does not continue the head, so even a
  client that skipped the lock cannot fork the chain, and triggers refuse UPDATE, DELETE and
  TRUNCATE. Operators need only INSERT and SELECT (the README's two GRANTs).

A password is never printed: every message names the store by :func:`.where.redact`; what a
value may name, and from which side, is :mod:`.where`'s rule.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core import environment
from .chain import (
    CHAIN_KEYS,
    GENESIS,
    decode_head,
)
from .log import (
    Line,
    Since,
    append,
    read_lines,
    read_log,
    utc_now,
    write_new,
)
from .verify import Report, verify
from .where import ENV_URL, Target, target_of


class Store(ABC):
    """One trail: append an event under the chain rule, read every event, check the chain."""

    def __init__(self, target: Target) -> None:
        self.target = target

    @property
    def display(self) -> str:
        return self.target.display

    @abstractmethod
    def append(
        self,
        record: Mapping[str, Any],
        *,
        clock: Callable[[], str] = utc_now,
        expect: Since | None = None,
    ) -> Line:
        """Append ``record`` (plus ``time`` and ``prev``) as the next event, or raise; with
        ``expect``, only when the events appended since the decision read the trail do not
        change it, else :class:`AuditError` and nothing appended."""

    @abstractmethod
    def lines(self) -> list[Line]:
        """Every event, in chain order."""

    @abstractmethod
    def verify(self) -> Report:
        """The chain and the head, checked; never repaired."""

    @abstractmethod
    def init(self) -> str:
        """Create what the store needs (idempotent); a sentence saying what was done."""

    @abstractmethod
    def load(self, raw: Sequence[bytes]) -> None:
        """Write verified lines, verbatim, into this store, which must be empty."""

    @abstractmethod
    def raw(self) -> list[bytes]:
        """Every committed event's line, verbatim (what ``audit copy`` moves)."""


def check_record(record: Mapping[str, Any]) -> None:
    taken = sorted(set(record) & set(CHAIN_KEYS))
    if taken:
        raise ValueError(f"the log writes {', '.join(taken)} itself")


def open_store(audit_log: str, *, root: Path, env: Mapping[str, str] | None = None) -> Store:
    """The store ``JOBLEDGER_AUDIT_URL`` names, else the configured ``audit_log``."""
    url = environment.read(ENV_URL, env)
    if url:
        target = target_of(url, root=root, origin=ENV_URL)
    else:
        target = target_of(audit_log, root=root, origin="[tool.jobledger] audit_log")
    return store_for(target, root=root)


def store_for(target: Target, *, root: Path) -> Store:
    """The store at ``target`` (a database's module is loaded only for a database)."""
    if target.kind == "file":
        return FileStore(target, root)
    from .sql import PostgresStore, SqliteStore

    if target.kind == "sqlite":
        return SqliteStore(target, root)
    return PostgresStore(target)


# -- the file -------------------------------------------------------------------------------------


class FileStore(Store):
    """Today's trail: ``.jobledger/audit.ndjson`` and its head file."""

    def __init__(self, target: Target, root: Path) -> None:
        super().__init__(target)
        self.root = root
        self.path = root / target.location

    def append(
        self,
        record: Mapping[str, Any],
        *,
        clock: Callable[[], str] = utc_now,
        expect: Since | None = None,
    ) -> Line:
        return append(self.path, record, root=self.root, clock=clock, expect=expect)

    def lines(self) -> list[Line]:
        return read_lines(self.path, root=self.root)

    def verify(self) -> Report:
        return verify(self.path, root=self.root)

    def init(self) -> str:
        return "a file trail needs no set-up: the first verdict creates it"

    def load(self, raw: Sequence[bytes]) -> None:
        write_new(self.path, raw, root=self.root)

    def raw(self) -> list[bytes]:
        data, head_raw = read_log(self.path, root=self.root)
        if data is None:
            return []
        lines = raw_lines(data)
        head = (0, GENESIS) if head_raw is None else decode_head(head_raw)
        if head is not None and len(lines) == head[0] + 1:
            return lines[:-1]  # an append that never committed: no verdict to copy
        return lines


def raw_lines(data: bytes) -> list[bytes]:
    """A verified log's lines, without their newlines."""
    return data.split(b"\n")[:-1]
