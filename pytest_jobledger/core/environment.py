"""Every ``JOBLEDGER_*`` environment variable the tool reads, named once and read here only.

The operator's environment wins over ``[tool.jobledger]`` where a key has an override (the key
table in ``project/keys.py`` names it); the others pin what a test or the Action needs.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

#: The store of the verdicts' trail; wins over ``audit_log`` (a password lives here, never in
#: the committed pyproject.toml).
AUDIT_URL = "JOBLEDGER_AUDIT_URL"
#: Extraction's content cache folder, anywhere; wins over ``cache_dir``.
CACHE_DIR = "JOBLEDGER_CACHE_DIR"
#: The folder of the cache's signing key (default: the user's cache folder).
KEY_DIR = "JOBLEDGER_KEY_DIR"
#: The folder that keeps the head of every trail this machine appended to (default: the user's
#: state folder), which ``audit --verify`` compares.
STATE_DIR = "JOBLEDGER_STATE_DIR"
#: The day reviews are dated against (``YYYY-MM-DD``), after ``--today``.
TODAY = "JOBLEDGER_TODAY"
#: A file each reading a session makes is noted in (how the suite counts readings).
TRACE = "JOBLEDGER_TRACE"
#: The Action's inputs, handed to its pytest run.
SARIF_FILE = "JOBLEDGER_SARIF_FILE"
PYTEST_ARGS = "JOBLEDGER_PYTEST_ARGS"
ANNOTATIONS = "JOBLEDGER_ANNOTATIONS"

VARIABLES: tuple[str, ...] = (
    AUDIT_URL,
    CACHE_DIR,
    KEY_DIR,
    STATE_DIR,
    TODAY,
    TRACE,
    SARIF_FILE,
    PYTEST_ARGS,
    ANNOTATIONS,
)


def read(name: str, environ: Mapping[str, str] | None = None) -> str:
    """The variable's value ("" when unset); ``environ`` replaces the process's (a test's)."""
    if name not in VARIABLES:
        raise KeyError(f"{name} is not a variable jobledger reads")
    return (os.environ if environ is None else environ).get(name, "")
