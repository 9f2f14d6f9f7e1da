"""The repository's own files, as a fresh clone holds them, for tests that copy an example or a
case folder.

A user's run leaves git-ignored files in the working tree (the README's first command leaves
``examples/homegrown/.jobledger_cache/``; pytest leaves ``__pycache__``): a test that copied them
would depend on what ran before it. :func:`copy_tracked` copies only what ``git ls-files`` lists
(committed or staged, plus new files git does not ignore, so a case being written is copied too).
Outside a git checkout (an unpacked archive) it copies the folder without the names a run leaves.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: What a run leaves behind, skipped when git cannot say what the repository holds.
LEFT_BY_A_RUN = (".jobledger_cache", ".jobledger", "__pycache__", ".pytest_cache", ".hypothesis")


@functools.lru_cache(maxsize=1)
def repository_files() -> frozenset[str] | None:
    """Every file of this repository (``/``-separated, relative to :data:`REPO`), or ``None``
    when it is not a git checkout."""
    try:
        done = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=REPO,
            env={**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"},
            capture_output=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return frozenset(name for name in done.stdout.decode("utf-8").split("\0") if name)


def copy_tracked(source: Path, target: Path, *, dirs_exist_ok: bool = False) -> Path:
    """Copy the repository's files under ``source`` to ``target`` (like :func:`shutil.copytree`,
    symlinks kept as symlinks); never a file a run left there."""
    files = repository_files()
    if files is None:
        return Path(
            shutil.copytree(
                source,
                target,
                symlinks=True,
                dirs_exist_ok=dirs_exist_ok,
                ignore=shutil.ignore_patterns(*LEFT_BY_A_RUN),
            )
        )
    inside = source.resolve().relative_to(REPO).as_posix()
    prefix = "" if inside == "." else inside + "/"
    chosen = sorted(name[len(prefix) :] for name in files if name.startswith(prefix))
    if not chosen:
        raise FileNotFoundError(f"the repository holds no file under {source}")
    if target.exists() and not dirs_exist_ok:
        raise FileExistsError(f"{target} exists")
    target.mkdir(parents=True, exist_ok=True)
    for name in chosen:
        origin = source / name
        if not origin.is_symlink() and not origin.exists():
            continue  # deleted in the working tree, not yet committed
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(origin, destination, follow_symlinks=False)
    return target
