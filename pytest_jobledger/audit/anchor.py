"""The head of every trail this machine appended to, kept outside the work tree.

A file trail and its head file live in one folder: whoever can write it can take the last
verdicts out and put the head back, and the chain still checks. So after every append the
trail's head (its identity, line count and last line's sha256) is also written to the user's
state folder: ``$JOBLEDGER_STATE_DIR``, else ``$XDG_STATE_HOME/pytest-jobledger``, else
``~/.local/state/pytest-jobledger`` (as the cache key lives in the user's cache folder), one file
per store location. ``audit --verify`` compares: a trail shorter than what this machine appended
is reported with the missing range, and a line that differs from the one appended there means
the trail was rewritten.

What this proves: no line this machine appended was cut or rewritten since, as long as this
user's state folder is intact. It proves nothing about other machines' appends, and a user who
can write both the trail and the state folder can still rewrite both; only a shared store
(SQLite or PostgreSQL with the README's GRANTs) takes cutting away from the people who append.
A state folder inside the project root is not used (a checkout could carry it).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core import environment
from ..core.atomic import atomic_write, make_folder
from ..core.paths import is_inside
from .chain import AuditError
from .identity import identity_of
from .log import Line
from .sql import SqliteStore
from .store import FileStore, Store
from .verify import Report

ENV = environment.STATE_DIR
#: A record is a few hundred bytes; a larger file is not ours.
MAX_BYTES = 64 * 1024


def state_folder(environ: Mapping[str, str] | None = None) -> Path:
    """Where trail heads are kept: ``$JOBLEDGER_STATE_DIR``, else the user's state folder."""
    env = os.environ if environ is None else environ
    named = environment.read(ENV, env).strip()
    if named:
        return Path(named).expanduser().resolve()
    xdg = env.get("XDG_STATE_HOME", "").strip()
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".local" / "state"
    return (base / "pytest-jobledger").resolve()


def location_of(store: Store) -> str:
    """The store's place, as the anchor is keyed: an absolute path, or the URL without a
    password."""
    if isinstance(store, (FileStore, SqliteStore)):
        return str(store.path.resolve())
    return store.display


def _record_path(store: Store, folder: Path) -> Path:
    key = hashlib.sha256(location_of(store).encode("utf-8", "surrogateescape")).hexdigest()
    return folder / "trails" / f"{key}.json"


def _usable(store: Store) -> Path | None:
    """The state folder, or ``None`` when there is none to use (no home, inside the root)."""
    try:
        folder = state_folder()
    except (RuntimeError, KeyError):
        return None
    root = getattr(store, "root", None)
    if isinstance(root, Path) and is_inside(folder, root):
        return None
    return folder


def remember(store: Store, line: Line) -> None:
    """Record ``line`` as the head this machine appended to ``store`` (best effort: the event is
    already committed, and a state folder that cannot be written must not turn a recorded
    verdict into an error; ``--verify`` then says no head was kept)."""
    folder = _usable(store)
    if folder is None:
        return
    try:
        lines = [each for each in store.lines() if each.committed]
        record = {
            "store": location_of(store),
            "trail": identity_of(lines),
            "lines": line.number,
            "sha256": line.sha256,
        }
        path = _record_path(store, folder)
        known = _read(path)
        # Keep the furthest head: another append of ours went further, or the trail was cut and
        # appended to again (then --verify names the rewritten line).
        recorded = known.get("lines") if known is not None else None
        same = known is not None and known.get("trail") == record["trail"]
        if same and isinstance(recorded, int) and recorded > line.number:
            return
        make_folder(path.parent)
        data = json.dumps(record, indent=2, sort_keys=True) + "\n"
        atomic_write(path, data, root=folder)
    except (OSError, ValueError):
        return


def _read(path: Path) -> dict[str, Any] | None:
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def anchored(store: Store, report: Report) -> Report:
    """``report`` (the chain's own check) with this machine's record of the head compared: a
    rollback is a break naming the missing lines, a rewrite a break at the line that changed."""
    folder = _usable(store)
    if not report.ok or folder is None:
        return report
    known = _read(_record_path(store, folder))
    if known is None:
        return report
    try:
        lines = store.lines()
    except AuditError:
        return report
    return _compare(known, lines, report, where=str(_record_path(store, folder)))


def _compare(
    known: Mapping[str, Any], lines: Sequence[Line], report: Report, *, where: str
) -> Report:
    count, sha = known.get("lines"), known.get("sha256")
    if not isinstance(count, int) or not isinstance(sha, str):
        return report
    committed = [line for line in lines if line.committed]
    where = f"this machine's record of the trail ({where})"
    if known.get("trail") not in (None, identity_of(committed)) and committed:
        return dataclasses.replace(
            report,
            broken=1,
            reason=f"the trail's first line is not the one this machine appended to: {where} "
            f"names trail {known.get('trail')}; the trail was replaced",
        )
    if len(committed) < count:
        first = len(committed) + 1
        missing = f"line {count}" if first == count else f"lines {first}-{count}"
        return dataclasses.replace(
            report,
            broken=first,
            reason=f"rolled back: this machine appended up to line {count} (sha256 {sha[:12]}), "
            f"and the trail ends at line {len(committed)}: {missing} missing ({where})",
        )
    if committed[count - 1].sha256 != sha:
        return dataclasses.replace(
            report,
            broken=count,
            reason=f"line {count} is not the line this machine appended there (sha256 "
            f"{sha[:12]}): the trail was rewritten at or before it ({where})",
        )
    return report
