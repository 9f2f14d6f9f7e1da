"""A stable machine-readable list: ``[{id, cell, kind, level, path, line, message}, ...]``."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..core.text import escape_surrogates
from ..findings import Finding
from ..project import Config


def report(findings: Sequence[Finding], config: Config) -> str:
    rows = [finding.to_json() for finding in findings]
    # A lone surrogate (an escape in a source or overlay) is written as its JSON escape.
    return escape_surrogates(json.dumps(rows, indent=2, sort_keys=True, ensure_ascii=False)) + "\n"
