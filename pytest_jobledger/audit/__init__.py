"""The audit trail: one JSON line per verdict, chained by sha256, appended and never rewritten.

- ``chain``: the line format, the genesis value, the head file;
- ``log``: append under the folder's lock (with a timeout, fsync), and read back;
- ``verify``: the first line that breaks the chain or the head;
- ``events``: the event kinds, each checked against its JSON Schema before it is appended;
- ``store``: the same chain in a file, SQLite or PostgreSQL (``JOBLEDGER_AUDIT_URL``).

Only the leaves (``core/``) are imported here: the trail knows
nothing of what a verdict means, so it can be checked without the rest of the tool.
"""

from __future__ import annotations

from .chain import GENESIS, AuditError, head_path
from .events import KINDS, append_event
from .log import LOCK_TIMEOUT_S, Line, Since, append, read_lines
from .store import ENV_URL, SCHEMA_VERSION, Store, Target, open_store, redact, store_for, target_of
from .verify import Report, verify

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
    "append",
    "append_event",
    "head_path",
    "open_store",
    "read_lines",
    "redact",
    "store_for",
    "target_of",
    "verify",
]
