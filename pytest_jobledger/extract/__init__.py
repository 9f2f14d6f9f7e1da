"""Static extraction of job registrations with libcst; the scanned code is never imported.

Stages: ``discovery`` (which files, which module names) -> ``loading`` (bytes to a summary, or a
located problem; ``limits`` + ``tokens`` vouch for a file before libcst sees it) -> ``walker`` (one
statement walk per file, filling ``records``) -> ``resolve`` (names across modules) ->
``sites`` + ``matching`` + ``frameworks`` (what registers a job; ``enqueue`` for RQ's enqueued
functions, merged one row per function by ``enqueued``; ``worker_settings`` for arq's and SAQ's
settings; ``imports`` for a job framework without a table; ``celery_config`` + ``celery_facts``
for Celery's routes and beat schedule) ->
``rows`` + ``arguments`` + ``values`` (what a registration says) -> ``engine`` (the driver).
Extraction knows nothing of overlays, the gate or pytest.
"""

from __future__ import annotations

from .engine import Extraction, extract, extract_ledger

__all__ = ["Extraction", "extract", "extract_ledger"]
