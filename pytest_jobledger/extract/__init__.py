"""Static extraction of job registrations with libcst; the scanned code is never imported.

Stages: ``discovery`` (which files, which module names) -> ``symbols`` (one walk per file) ->
``resolve`` (names across modules) -> ``frameworks`` + ``arguments`` (what a registration says)
-> ``engine`` (ledger rows and unsupported patterns).
"""

from __future__ import annotations

from .engine import extract_ledger

__all__ = ["extract_ledger"]
