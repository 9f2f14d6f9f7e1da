"""A stable machine-readable list: ``[{id, cell, kind, level, path, line, message}, ...]``."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..config import Config
from ..findings import Finding


def report(findings: Sequence[Finding], config: Config) -> str:
    rows = [finding.to_json() for finding in findings]
    return json.dumps(rows, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
