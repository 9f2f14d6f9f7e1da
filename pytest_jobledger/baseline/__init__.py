"""The baseline: a legacy repository's known failures, so the gate fails only on new ones.

- ``model``: an entry is one failing (job, cell, kind); the file's exact text; which findings
  may be baselined (never a status item);
- ``store``: the committed file read back, or a located refusal (corrupt, foreign, too new);
- ``apply``: the gate's result with each known failure turned into a notice and each entry that
  no longer fails turned into a ``baseline-stale`` error, so the file only shrinks;
- ``base``: with a base, only the entries the base's baseline holds apply; any other is a
  failing ``baseline-grown`` item (a pull request cannot vouch for its own failures).

The session applies it once, before any presenter sees a finding.
"""

from __future__ import annotations

from .apply import apply_baseline
from .base import BaseBaseline, base_entries, held_by_base, unreadable_base
from .model import Baseline, Entry, baselineable, current_entries
from .store import BaselineError, read_baseline

__all__ = [
    "BaseBaseline",
    "Baseline",
    "BaselineError",
    "Entry",
    "apply_baseline",
    "base_entries",
    "baselineable",
    "current_entries",
    "held_by_base",
    "read_baseline",
    "unreadable_base",
]
