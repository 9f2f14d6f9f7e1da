"""Where the content cache lives, and whether a folder is ours to write.

Kept apart from :mod:`.cache` (the snapshot's format) so the memos of the read-only commands
(:mod:`pytest_jobledger.memo`) and the stub's memo find the same folder, bound the same way,
without importing extraction.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..core import environment
from ..core.atomic import atomic_write, make_folder
from ..core.paths import read_regular
from ..project import Config

ENV = environment.CACHE_DIR
TAG = "Signature: 8a477f597d28d172789f06886806bc55"
GITIGNORE = "# The content cache of pytest-jobledger: never commit it.\n*\n"


def cache_folder(config: Config) -> tuple[Path, Path | None]:
    """The cache folder for ``config`` and what its reads and writes are bound to:
    ``JOBLEDGER_CACHE_DIR`` when set (``None``: the folder itself, the operator named it), else
    the root's ``cache_dir`` (bound to the root). Other caches of the tool (the stub's memo of a
    run with nothing to do) live here too."""
    named = environment.read(ENV).strip()
    if named:
        return Path(named).expanduser().resolve(), None
    return config.root / config.cache.dir, config.root


def is_cache_folder(folder: Path, root: Path) -> bool:
    """Whether ``folder`` is empty or has our ``CACHEDIR.TAG`` (else it is not ours to write)."""
    try:
        entries = os.listdir(folder)
    except OSError:
        return False
    if not entries:
        return True
    try:
        tag = read_regular(folder / "CACHEDIR.TAG", root=root, limit=4096)
    except OSError:
        return False
    return tag.startswith(TAG.encode())


def prepare_folder(folder: Path, bound: Path | None) -> None:
    """Make the folder a cache folder: a ``.gitignore`` of ``*`` and a ``CACHEDIR.TAG``."""
    if not (folder / "CACHEDIR.TAG").is_file():
        make_folder(folder, root=bound)
        root = folder if bound is None else bound
        atomic_write(folder / ".gitignore", GITIGNORE, root=root)
        atomic_write(
            folder / "CACHEDIR.TAG",
            f"{TAG}\n# The content cache of pytest-jobledger; see https://bford.info/cachedir/\n",
            root=root,
        )
