"""Static extraction of job registrations with libcst; the scanned code is never imported.

Stages: ``discovery`` (which files, which module names; ``patterns``: one gitignore line,
translated by pathspec when first tried) -> ``loading`` (bytes to a summary, or a
located problem; ``limits`` + ``tokens`` vouch for a file before libcst sees it) -> ``walker`` (one
statement walk per file with ``expressions``, filling ``records``; ``scopes``: what each
function, class body and comprehension binds) -> ``resolve`` (names across modules, to a
resolved name of ``refs``) -> ``sites`` + ``matching`` +
``frameworks`` (what registers a job; ``binding``: the evidence a place needs, by binding never by
spelling; ``advice``: what a problem says; ``enqueue`` for RQ's enqueued
functions, merged one row per function by ``enqueued``; ``worker_settings`` for arq's and SAQ's
settings; ``schedules`` for a schedule stacked on a job's decorator; ``imports`` for a job
framework without a table; ``celery_config`` + ``celery_facts`` for Celery's routes and beat
schedule) -> ``ignores`` (accepted places, from comments) ->
``rows`` + ``arguments`` + ``values`` (what a registration says) -> ``engine`` (the driver;
``overruled``: what the configuration asked for that it overruled or could not find).
Speed: ``prefilter`` (which files can register, from their text; ``reach``: where a job decorator
can come from), ``inert`` (a candidate proved from CPython's tree to yield nothing is not parsed,
or, for a test calling the jobs it imports, once the scanner finds them plain defs), ``reading``
(bytes and their digest, or a located problem), ``reduce`` (less for libcst to parse), ``filescan``
(one candidate file scanned), ``parallel`` (worker processes when there are many), ``cache`` +
``cachekey`` + ``deps`` (the content cache, its machine key, what a row was made from).
``wrapper``: what a declared wrapper's own body sets. ``folder``: where the content cache and the
other memos live. Extraction knows nothing of overlays, the gate or pytest.

The driver is imported on first use of a name below (module ``__getattr__``), so a command that
only needs the cache folder, the machine key or discovery does not pay for the whole engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .engine import Extraction, extract, extract_ledger

__all__ = ["Extraction", "extract", "extract_ledger"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(importlib.import_module(f"{__name__}.engine"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
