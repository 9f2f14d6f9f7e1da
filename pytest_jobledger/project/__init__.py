"""The project layer: ``[tool.jobledger]`` read once, into records, and every project file read
through one reader.

- ``keys``: every key once (record, default, role, read limit, validator, example, environment
  override); the known keys, defaults, path roles, the README's block and the table's JSON
  schema derive from it;
- ``reference``: the documentation site's configuration page, rendered from the key table;
- ``checks``: one validator per kind of value (and per key that needs more);
- ``records``: the frozen :class:`Config`, one sub-record per concept;
- ``roles``: which file each path key names, and that no two share one;
- ``load``: find the file, parse it, check each key as the table says;
- ``files``: ``read_file``, the one reader of a project file (the limit from the key table, one
  sentence per reason).
"""

from __future__ import annotations

from ..overlay.cells import DEFAULT_REQUIRED_CELLS
from .checks import JOB_ID_STYLES, REVIEW_ON_CHANGE, RUNBOOK_GROUPS
from .keys import KEYS, WRITTEN_ROLES, Key, Role
from .load import MAX_CONFIG_BYTES, config_from_table, find_pyproject, key_lines, load_config
from .records import (
    BULK_RETRY_CEILING,
    DEFAULT_AUDIT_LOG,
    DEFAULT_BLOCKED_VALUES,
    DEFAULT_BULK_RETRY_LIMIT,
    DEFAULT_CACHE_DIR,
    DEFAULT_DRAFTS,
    DEFAULT_EXCLUDE,
    DEFAULT_MAX_FILE_BYTES,
    DEFAULT_RUNBOOK,
    Cache,
    Cells,
    Config,
    DecoratorSpec,
    Drafts,
    Extraction,
    Files,
    Review,
    Runbook,
    Verdict,
)
from .roles import is_url

__all__ = [
    "BULK_RETRY_CEILING",
    "DEFAULT_AUDIT_LOG",
    "DEFAULT_BLOCKED_VALUES",
    "DEFAULT_BULK_RETRY_LIMIT",
    "DEFAULT_CACHE_DIR",
    "DEFAULT_DRAFTS",
    "DEFAULT_EXCLUDE",
    "DEFAULT_MAX_FILE_BYTES",
    "DEFAULT_REQUIRED_CELLS",
    "DEFAULT_RUNBOOK",
    "JOB_ID_STYLES",
    "KEYS",
    "MAX_CONFIG_BYTES",
    "REVIEW_ON_CHANGE",
    "RUNBOOK_GROUPS",
    "WRITTEN_ROLES",
    "Cache",
    "Cells",
    "Config",
    "DecoratorSpec",
    "Drafts",
    "Extraction",
    "Files",
    "Key",
    "Review",
    "Role",
    "Runbook",
    "Verdict",
    "config_from_table",
    "find_pyproject",
    "is_url",
    "key_lines",
    "load_config",
]
