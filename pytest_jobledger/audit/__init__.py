"""The audit trail: one JSON line per verdict, chained by sha256, appended and never rewritten.

- ``chain``: the line format, the genesis value, the head file;
- ``log``: append under the folder's lock (with a timeout, fsync), and read back;
- ``verify``: the first line that breaks the chain or the head;
- ``anchor``: the head of every trail this machine appended to, kept in the user's state folder
  (outside the work tree), compared by ``--verify`` (a rollback names the missing lines);
- ``identity``: which trail this is (a ``trail`` event's id, or the first line's sha256), and its
  head: what a signed plan names;
- ``events``: the event kinds, each schema describing a stored line, checked before append;
- ``store``: one interface over the stores, and the file store;
- ``sql``: the same chain in SQLite or PostgreSQL (loaded only for a database);
- ``where``: the one parser of where a trail is (``audit_log``, ``JOBLEDGER_AUDIT_URL``): what the
  repository may name (no host, no connection parameter) and what only the operator may.

Only the leaves (``core/``) are imported here: the trail knows
nothing of what a verdict means, so it can be checked without the rest of the tool.
"""

from __future__ import annotations

from .anchor import anchored, state_folder
from .chain import GENESIS, AuditError, head_path
from .events import KINDS, append_event
from .identity import head_of, identify, identity_of
from .log import LOCK_TIMEOUT_S, Line, Since, append, read_lines
from .sql import SCHEMA_VERSION
from .store import Store, open_store, store_for
from .verify import Report, verify
from .where import ENV_URL, Target, redact, target_of

__all__ = [
    "ENV_URL",
    "GENESIS",
    "KINDS",
    "LOCK_TIMEOUT_S",
    "SCHEMA_VERSION",
    "AuditError",
    "Line",
    "Report",
    "Since",
    "Store",
    "Target",
    "anchored",
    "append",
    "append_event",
    "head_of",
    "head_path",
    "identify",
    "identity_of",
    "open_store",
    "read_lines",
    "redact",
    "state_folder",
    "store_for",
    "target_of",
    "verify",
]
