"""Every ``[tool.jobledger]`` key, once: its record, default, role, read limit, validator,
example and environment override.

Adding a key is one :class:`Key` row here (and its validator in ``checks.py`` when a kind's own
check is not enough). What derives from this table: the known keys (and "did you mean"), the
defaults, the path roles that may not share a file, the examples in messages, the README's
configuration block (``readme_block``, compared by a test) and the JSON schema of the table
(``table_schema``).
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.environment import AUDIT_URL, CACHE_DIR
from ..core.readers import parse_toml
from ..overlay.cells import DEFAULT_REQUIRED_CELLS
from . import checks
from .checks import Context
from .records import (
    DEFAULT_AUDIT_LOG,
    DEFAULT_BASELINE,
    DEFAULT_BLOCKED_VALUES,
    DEFAULT_BULK_RETRY_LIMIT,
    DEFAULT_CACHE_DIR,
    DEFAULT_DRAFTS,
    DEFAULT_LEDGER,
    DEFAULT_MAX_FILE_BYTES,
    DEFAULT_OVERLAY,
    DEFAULT_RUNBOOK,
    DEFAULT_SCHEMA,
    MAX_OVERLAY_BYTES,
)

#: A validator: the key's name, its value as TOML gave it, the reading's context.
Validator = Callable[[str, object, Context], object]

MIB = 1024 * 1024


class Role(enum.Enum):
    """What a key's value is to the tool."""

    VALUE = "value"
    #: A file the tool reads and never writes (the roster, the approvers' keys).
    READ = "path read"
    #: A file or folder the tool writes (and may read back).
    WRITTEN = "path written"
    #: A path written, or the URL of a store.
    URL = "path written or URL"


@dataclass(frozen=True)
class Key:
    """One key of ``[tool.jobledger]``."""

    name: str
    #: Where the value goes: ``Config.<record>.<field>``.
    record: str
    field: str
    #: The JSON schema type of the value as written in TOML.
    type: str
    #: ``None``: unset unless written (validators never see it).
    default: object
    validate: Validator
    #: The README's right-hand side (TOML), also the value messages suggest.
    example: str
    #: The README's comment ("" for none; "\n" continues on the next line).
    note: str = ""
    role: Role = Role.VALUE
    #: The most bytes read of the file a path key names (``None``: not read by size).
    limit: int | None = None
    #: The ``JOBLEDGER_*`` variable that wins over the key, when there is one.
    env: str | None = None
    #: The path that takes effect when the key is unset and its default is ``None``.
    fallback: str | None = None
    #: The file is written by people (an editor's byte-order mark is accepted, and a refusal
    #: says to save it as UTF-8 rather than that jobledger did not write it).
    by_hand: bool = False

    @property
    def example_value(self) -> Any:
        """The example as TOML reads it (a table key's example is its own ``[section]``)."""
        if self.type == "object":
            return parse_toml(self.example)["tool"]["jobledger"][self.name]
        return parse_toml(f"v = {self.example}")["v"]


def _path(
    name: str, record: str, field: str, default: str | None, note: str = "", **kw: Any
) -> Key:
    example = json.dumps(kw.pop("example", default))
    return Key(name, record, field, "string", default, checks.path, example, note, **kw)


_EXTRACTION = (
    Key(
        "paths",
        "extraction",
        "paths",
        "array",
        (".",),
        checks.scanned_paths,
        '["src"]',
        'what to scan, relative to the root; default ["."]',
    ),
    Key(
        "exclude",
        "extraction",
        "exclude",
        "array",
        (),
        checks.exclude_patterns,
        '["**/migrations/**"]',
        ".gitignore patterns (reports/, [r]eports, !keep.py); venvs, caches, build output and "
        "VCS folders are always skipped",
    ),
    Key(
        "respect_gitignore",
        "extraction",
        "respect_gitignore",
        "boolean",
        False,
        checks.boolean,
        "false",
        "true: also leave out what the tree's .gitignore files ignore",
    ),
    Key(
        "job_id",
        "extraction",
        "job_id",
        "string",
        "import-path",
        checks.job_id,
        '"import-path"',
        'or "registered-name": a literal name= / actor_name= is the id',
    ),
    Key(
        "max_file_bytes",
        "extraction",
        "max_file_bytes",
        "integer",
        DEFAULT_MAX_FILE_BYTES,
        checks.max_file_bytes,
        str(DEFAULT_MAX_FILE_BYTES),
        "larger files are reported, not parsed (at most 16 MiB)",
    ),
    Key(
        "allow_empty",
        "extraction",
        "allow_empty",
        "boolean",
        False,
        checks.boolean,
        "false",
        "true: a scan that finds no job passes (a project without jobs)",
    ),
)
_FILES = (
    # A committed ledger of 100,000 jobs is about 60 MB (the tree's and the base's alike).
    _path("ledger", "files", "ledger", DEFAULT_LEDGER, role=Role.WRITTEN, limit=64 * MIB),
    _path("overlay", "files", "overlay", DEFAULT_OVERLAY, role=Role.WRITTEN, by_hand=True),
    Key(
        "max_overlay_bytes",
        "files",
        "max_overlay_bytes",
        "integer",
        MAX_OVERLAY_BYTES,
        checks.max_overlay_bytes,
        str(MAX_OVERLAY_BYTES),
        "the largest overlay read or written; at most 4194304",
    ),
    _path(
        "schema",
        "files",
        "schema",
        DEFAULT_SCHEMA,
        "where `jobledger schema` writes",
        role=Role.WRITTEN,
        limit=MIB,
    ),
    Key(
        "schema_url",
        "files",
        "schema_url",
        "string",
        None,
        checks.schema_url,
        '"https://example.com/job_policy.schema.json"',
        "optional: what the stub's $schema line names",
    ),
)
_CELLS = (
    Key(
        "required_cells",
        "cells",
        "required",
        "array",
        DEFAULT_REQUIRED_CELLS,
        checks.required_cells,
        json.dumps(list(DEFAULT_REQUIRED_CELLS)),
    ),
    Key(
        "blocked_values",
        "cells",
        "blocked",
        "array",
        DEFAULT_BLOCKED_VALUES,
        checks.strings,
        json.dumps(list(DEFAULT_BLOCKED_VALUES)),
        "never a signature (compared case- and space-insensitively)",
    ),
)
_REVIEW = (
    Key(
        "review_on_change",
        "review",
        "on_change",
        "string",
        "warn",
        checks.review_on_change,
        '"warn"',
        'or "fail" / "off": a changed job whose entry was not touched',
    ),
    Key(
        "max_review_age_days",
        "review",
        "max_age_days",
        "integer",
        None,
        checks.max_review_age_days,
        "180",
        "optional: reviewed_on required, older reviews fail",
    ),
    _path(
        "owners",
        "review",
        "owners",
        None,
        "optional: the rotations a paging_owner may name",
        role=Role.READ,
        limit=256 * 1024,
        by_hand=True,
        example="overlays/owners.yaml",
    ),
)
_VERDICT = (
    Key(
        "audit_log",
        "verdict",
        "audit_log",
        "string",
        DEFAULT_AUDIT_LOG,
        checks.audit_log,
        json.dumps(DEFAULT_AUDIT_LOG),
        "where every verdict is appended (inside the root), or\n"
        "sqlite:///rel/path.db, or postgresql://user@/db\n"
        f"(no host, port or password here: {AUDIT_URL} wins)",
        role=Role.URL,
        env=AUDIT_URL,
    ),
    Key(
        "bulk_retry_limit",
        "verdict",
        "bulk_retry_limit",
        "integer",
        DEFAULT_BULK_RETRY_LIMIT,
        checks.bulk_retry_limit,
        str(DEFAULT_BULK_RETRY_LIMIT),
        "the most jobs one bulk retry may touch, unless a job signs its own; at most 10000",
    ),
    Key(
        "audit_observations",
        "verdict",
        "audit_observations",
        "boolean",
        False,
        checks.boolean,
        "false",
        "true: `show` and `list` append an observation event first",
    ),
    _path(
        "allowed_signers",
        "verdict",
        "allowed_signers",
        None,
        "optional: approvers' SSH keys (git's format), for --approval",
        role=Role.READ,
        limit=MIB,
        by_hand=True,
        example="overlays/allowed_signers",
    ),
)
_PAGES = (
    _path(
        "runbook",
        "runbook",
        "path",
        None,
        "the runbook; configuring it adds the runbook-fresh item",
        role=Role.WRITTEN,
        limit=64 * MIB,
        example=DEFAULT_RUNBOOK,
        fallback=DEFAULT_RUNBOOK,
    ),
    Key(
        "runbook_group_by",
        "runbook",
        "group_by",
        "string",
        "queue",
        checks.runbook_group_by,
        '"queue"',
        'or "module", "owner", "framework"',
    ),
    _path(
        "drafts",
        "drafts",
        "path",
        DEFAULT_DRAFTS,
        "unverified drafts (never read by the gate)",
        role=Role.WRITTEN,
        limit=4 * MIB,
    ),
    Key(
        "draft_command",
        "drafts",
        "command",
        "string",
        None,
        checks.draft_command,
        '"my-model-cli --max-words 60"',
        "run only by `jobledger draft`, never by a shell",
    ),
    _path(
        "baseline",
        "files",
        "baseline",
        DEFAULT_BASELINE,
        "known failures (`jobledger baseline`): notices, not errors",
        role=Role.WRITTEN,
        limit=16 * MIB,
    ),
)
_CACHE = (
    Key(
        "cache_dir",
        "cache",
        "dir",
        "string",
        DEFAULT_CACHE_DIR,
        checks.cache_dir,
        json.dumps(DEFAULT_CACHE_DIR),
        f"extraction's content cache, inside the root (${CACHE_DIR} overrides)",
        role=Role.WRITTEN,
        env=CACHE_DIR,
    ),
)
_TABLES = (
    Key(
        "cells",
        "cells",
        "settings",
        "object",
        {},
        checks.cell_settings,
        "[tool.jobledger.cells.runtime_class]   # optional, per cell: the only answers it takes\n"
        'allowed = ["synchronous-short", "asynchronous-short", "batch-long"]',
    ),
    Key(
        "decorators",
        "extraction",
        "decorators",
        "object",
        {},
        checks.decorators,
        '[tool.jobledger.decorators."acme.jobs.job"]   # a homegrown decorator, by the name it '
        "resolves to\n"
        'framework = "celery"        # optional: read its other arguments by that framework\'s '
        "rules and units\n"
        'queue = "queue"             # ledger field = keyword name, or an integer for a '
        "positional argument\n"
        'max_retries = "attempts"\n'
        'time_limit_s = "timeout"\n'
        'time_unit = "ms"            # optional, default "s"',
    ),
)

#: The table, in the order keys are checked (a key may depend on one above it: ``cells`` on
#: ``blocked_values``, ``max_review_age_days`` on ``required_cells``) and path roles compared.
KEYS: tuple[Key, ...] = (
    *_EXTRACTION,
    *_FILES,
    *_CELLS,
    *_REVIEW,
    *_PAGES,
    *_VERDICT,
    *_CACHE,
    *_TABLES,
)
BY_NAME: Mapping[str, Key] = {key.name: key for key in KEYS}
KNOWN: frozenset[str] = frozenset(BY_NAME)
DEFAULTS: Mapping[str, object] = {key.name: key.default for key in KEYS}
#: The keys that name a file or folder the tool writes (the overlay: by the stub).
WRITTEN_ROLES: tuple[str, ...] = tuple(
    key.name for key in KEYS if key.role in (Role.WRITTEN, Role.URL)
)
#: Every path key, written first, in the order their files are compared.
PATH_ROLES: tuple[str, ...] = WRITTEN_ROLES + tuple(
    key.name for key in KEYS if key.role is Role.READ
)
#: A sensible value of each path key, for messages.
EXAMPLES: Mapping[str, str] = {
    name: str(BY_NAME[name].example_value) for name in PATH_ROLES if name != "cache_dir"
}


def table_schema() -> dict[str, Any]:
    """The JSON schema of ``[tool.jobledger]`` (its shape; the validators say the rest)."""
    properties: dict[str, Any] = {}
    for key in KEYS:
        prop: dict[str, Any] = {"type": key.type}
        if key.default is not None:
            default = key.default
            prop["default"] = list(default) if isinstance(default, tuple) else default
        if key.note:
            prop["description"] = " ".join(key.note.split("\n"))
        properties[key.name] = prop
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "[tool.jobledger]",
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }


#: The column the README's comments start at.
_COMMENT_COLUMN = 39


def readme_block() -> str:
    """The README's configuration block (indented four spaces), one line per key."""
    lines = [
        "[tool.jobledger]".ljust(_COMMENT_COLUMN)
        + "# in pyproject.toml, or any TOML file given with --config"
    ]
    for key in KEYS:
        if key.type == "object":
            continue
        line = f"{key.name} = {key.example}"
        notes = key.note.split("\n") if key.note else []
        if not notes:
            lines.append(line)
            continue
        lines.append(f"{line.ljust(_COMMENT_COLUMN - 1)} # {notes[0]}")
        lines.extend(" " * _COMMENT_COLUMN + f"# {note}" for note in notes[1:])
    for key in KEYS:
        if key.type == "object":
            lines += ["", *key.example.splitlines()]
    return "\n".join(f"    {line}".rstrip() for line in lines) + "\n"
