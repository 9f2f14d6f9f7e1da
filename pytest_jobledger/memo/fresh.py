"""The fresh ledger, remembered by how every source file looks: what ``list``, ``show`` and
``verdict`` need of the code is only whether the committed ledger is stale.

The key is every file discovery finds now (its path, module, size, modification and change
times, inode and device), with the configuration and the tool's code: an edited, added, removed
or renamed file, a changed ``.gitignore`` or setting, is another key, and the extraction runs. A
memo is recorded only when the files looked the same before and after the extraction and none
had changed within a moment before it (as the content cache decides, ``extract.cache.RACY_NS``),
and never when discovery met a folder it could not list.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import dataclass

from ..core.fingerprint import libraries
from ..extract import patterns as gitignore_lines
from ..extract.discovery import Excludes, iter_source_files
from ..ledger.model import Ledger
from ..project import Config
from .signed import open_signed, pickled, sha256, unpickled

#: (path, module, size, mtime_ns, ctime_ns, inode, device) of each file discovery finds.
Files = tuple[tuple[str, str, int, int, int, int, int], ...]


@dataclass(frozen=True)
class Look:
    """How every source file looked, and when the looking began."""

    files: Files
    seen_ns: int


def look(config: Config) -> Look | None:
    """How every source file looks now, or ``None`` when discovery met a problem. The gitignore
    lines' translations pathspec made in earlier runs are remembered too (its import costs a
    read-only command a tenth of its budget), keyed by pathspec's installation."""
    patterns = open_signed(config, "patterns", {"libraries": libraries(("pathspec",))})
    payload = patterns.read() if patterns is not None else None
    if payload is not None:
        with contextlib.suppress(ValueError):
            gitignore_lines.use_translations(json.loads(payload))
    try:
        return _look(config)
    finally:
        known = json.dumps(gitignore_lines.translations(), sort_keys=True, ensure_ascii=True)
        if patterns is not None and known.encode("ascii") != payload:
            patterns.write(known.encode("ascii"))


def _look(config: Config) -> Look | None:
    seen = time.time_ns()
    scan = config.extraction
    problems: list[str] = []
    excludes = Excludes(scan.all_excludes, config.root, respect_gitignore=scan.respect_gitignore)
    rows = []
    for source in iter_source_files(
        config.root, scan.paths, excludes, lambda rel, _reason: problems.append(rel)
    ):
        try:
            info = os.stat(source.abs_path)
        except OSError:
            return None
        rows.append(
            (
                source.rel_path,
                source.module,
                info.st_size,
                info.st_mtime_ns,
                info.st_ctime_ns,
                info.st_ino,
                info.st_dev,
            )
        )
    return None if problems else Look(tuple(rows), seen)


def _key(seen: Look) -> dict[str, object]:
    return {"files": sha256(repr(seen.files).encode())}


def recall(config: Config, seen: Look | None) -> Ledger | None:
    """The ledger an extraction gave when the files looked as they do now, or ``None``."""
    signed = open_signed(config, "fresh", _key(seen)) if seen is not None else None
    payload = signed.read() if signed is not None else None
    if payload is None:
        return None
    ledger = unpickled(payload)
    return ledger if isinstance(ledger, Ledger) else None


def remember(config: Config, before: Look | None, ledger: Ledger) -> None:
    """Record ``ledger`` when the files looked like ``before`` all through its extraction."""
    after = look(config)
    if before is None or after is None or after.files != before.files:
        return
    from ..extract.cache import COARSE_RACY_NS, RACY_NS

    for *_, _size, mtime, ctime, _inode, _device in before.files:
        coarse = mtime % 1_000_000_000 == 0 and ctime % 1_000_000_000 == 0
        if max(mtime, ctime) >= before.seen_ns - (COARSE_RACY_NS if coarse else RACY_NS):
            return
    signed = open_signed(config, "fresh", _key(before))
    if signed is not None:
        signed.write(pickled(ledger))
