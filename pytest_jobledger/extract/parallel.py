"""Parsing across processes when there are many candidate files; in-process when there are few.

libcst's parser holds the interpreter, so parallel parsing needs processes. Each worker is
started fresh (``spawn``: forking a process that runs threads, such as a pytest-xdist
controller, can deadlock) and builds its own :class:`~.filescan.Scanner` over the same file list,
so it parses the modules its files' names lead into on its own (a few shared modules, the app's,
are parsed once per worker). Results come back as plain records in the order of the files, so
the ledger is the same however the work was shared. Starting a worker costs a fresh interpreter,
the import of libcst and the parse of the shared modules again (about a second of CPU on a loaded
two-CPU machine, measured on ``benchmarks/repo_tree.py --shape real``), and candidates cost much
less than their size suggests since libcst sees only what can matter (:mod:`.reduce`): a worker
pays for itself only past a megabyte or two of candidate source.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ..project import Config
from .cache import ScanRecord
from .discovery import SourceFile
from .prefilter import Words

#: Below this much candidate source, parsing stays in the process (about a second of work).
PARALLEL_BYTES = 2 * 1024 * 1024
#: Each worker should get at least this much, or starting it costs more than it saves.
BYTES_PER_WORKER = 1024 * 1024
MAX_WORKERS = 8

_scanner: object = None


def available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def plan_workers(asked: int | None, sizes: Sequence[int]) -> int:
    """How many processes to parse ``sizes`` bytes of candidates with (1: in this process)."""
    if asked is not None:
        return max(1, min(asked, len(sizes)))
    total = sum(sizes)
    if total < PARALLEL_BYTES or len(sizes) < 4:
        return 1
    return max(1, min(available_cpus(), MAX_WORKERS, total // BYTES_PER_WORKER, len(sizes)))


def scan_in_processes(
    config: Config,
    files: Sequence[SourceFile],
    words: Words | None,
    todo: Sequence[SourceFile],
    workers: int,
    aliases: frozenset[str] = frozenset(),
) -> Iterator[tuple[str, ScanRecord]]:
    """Each file of ``todo`` scanned in one of ``workers`` processes, in the order of ``todo``.
    A pool that breaks (a worker killed) leaves the rest to this process."""
    done = 0
    chunk = max(1, len(todo) // (workers * 8))
    context = multiprocessing.get_context("spawn")
    try:
        with ProcessPoolExecutor(
            max_workers=workers,
            mp_context=context,
            initializer=_start,
            initargs=(config, list(files), words, aliases),
        ) as pool:
            for record in pool.map(_scan, todo, chunksize=chunk):
                yield todo[done].rel_path, record
                done += 1
    except BrokenProcessPool:
        pass
    if done < len(todo):
        from .filescan import Scanner

        scanner = Scanner(config, files, words, aliases=aliases)
        for source in todo[done:]:
            yield source.rel_path, scanner.scan(source)


def _start(
    config: Config, files: list[SourceFile], words: Words | None, aliases: frozenset[str]
) -> None:
    global _scanner
    from .filescan import Scanner

    _scanner = Scanner(config, files, words, aliases=aliases)


def _scan(source: SourceFile) -> ScanRecord:
    from .filescan import Scanner

    assert isinstance(_scanner, Scanner)
    return _scanner.scan(source)
