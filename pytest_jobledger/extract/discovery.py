"""Which files are scanned, and the importable module name each one has.

Walking is deterministic (sorted), never follows symlinked folders (so a symlink loop cannot trap
it), prunes excluded folders before descending, and knows from the walk itself which folders are
packages, so module names cost no extra file-system calls. A folder it cannot list, or a name that
cannot be written in the ledger (not valid UTF-8), is handed to the caller's ``on_problem``
instead of being skipped without a word.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path


@dataclass(frozen=True)
class SourceFile:
    """A Python file to consider: where it is and what module it would be imported as."""

    abs_path: Path
    rel_path: str
    module: str
    is_package: bool

    @property
    def package(self) -> str:
        """The package that relative imports in this file are relative to."""
        if self.is_package:
            return self.module
        return self.module.rpartition(".")[0]


@lru_cache(maxsize=256)
def glob_regex(pattern: str) -> re.Pattern[str]:
    """Translate a ``**``-aware glob (``**/migrations/**``) to a regex on posix paths."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def is_excluded(rel_path: str, patterns: Iterable[str], *, is_dir: bool = False) -> bool:
    """Whether ``rel_path`` (posix, relative to the root) matches an exclude glob.

    A folder is tested as ``folder/`` so that ``**/migrations/**`` prunes the folder itself.
    """
    candidates = (rel_path + "/", rel_path) if is_dir else (rel_path,)
    return any(glob_regex(p).match(c) for p in patterns for c in candidates)


#: Called with a path relative to the root (``/`` separators, printable) and why it was skipped.
OnProblem = Callable[[str, str], None]


def _ignore(rel: str, reason: str) -> None:
    return None


def iter_source_files(
    root: Path,
    paths: Iterable[str],
    excludes: Iterable[str],
    on_problem: OnProblem = _ignore,
) -> Iterator[SourceFile]:
    """Every ``.py`` file under the configured paths, once each, in sorted order."""
    excludes = tuple(excludes)
    seen: set[str] = set()
    package_dirs: dict[str, bool] = {}
    base = root.resolve()
    for entry in paths:
        start = (base / entry).resolve()
        if start != base and base not in start.parents:
            on_problem(entry, f"it resolves to {start}, outside the project root; not scanned")
            continue
        if start.is_file():
            rel = start.relative_to(base).as_posix()
            if rel not in seen and not is_excluded(rel, excludes):
                seen.add(rel)
                yield _source_file(root, rel, package_dirs)
            continue

        def unlisted(error: OSError, start: Path = start) -> None:
            # A configured path that does not exist is a configuration matter, and a folder
            # that vanished mid-walk has nothing left to read; anything else is a located gap.
            if not isinstance(error, FileNotFoundError):
                where = _display(base, Path(error.filename or start))
                on_problem(where, f"cannot list this folder ({error.strerror or error})")

        for dirpath, dirnames, filenames in os.walk(start, onerror=unlisted, followlinks=False):
            rel_dir = Path(dirpath).relative_to(base).as_posix()
            rel_dir = "" if rel_dir == "." else rel_dir
            package_dirs[rel_dir] = "__init__.py" in filenames
            dirnames[:] = sorted(
                d
                for d in dirnames
                if _nameable(rel_dir, d, on_problem)
                and not is_excluded(_join(rel_dir, d), excludes, is_dir=True)
            )
            for name in sorted(filenames):
                if not name.endswith(".py") or not _nameable(rel_dir, name, on_problem):
                    continue
                rel = _join(rel_dir, name)
                if rel in seen or is_excluded(rel, excludes):
                    continue
                seen.add(rel)
                yield _source_file(root, rel, package_dirs)


def _join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def _nameable(folder: str, name: str, on_problem: OnProblem) -> bool:
    """Whether ``name`` can be written in the ledger: a name that is not valid UTF-8 (Python
    holds its bytes as lone surrogates) would make the ledger itself unwritable."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        shown = os.fsencode(name).decode("utf-8", "backslashreplace")
        on_problem(_join(folder, shown), "its name is not valid UTF-8, so it cannot be named")
        return False
    return True


def _display(root: Path, path: Path) -> str:
    try:
        rel = path.relative_to(root).as_posix()
    except ValueError:
        rel = path.as_posix()
    rel = "." if rel in ("", ".") else rel
    return os.fsencode(rel).decode("utf-8", "backslashreplace")


def _source_file(root: Path, rel: str, package_dirs: dict[str, bool]) -> SourceFile:
    module, is_package = module_name(rel, lambda d: _is_package_dir(root, d, package_dirs))
    return SourceFile(abs_path=root / rel, rel_path=rel, module=module, is_package=is_package)


def _is_package_dir(root: Path, rel_dir: str, cache: dict[str, bool]) -> bool:
    if rel_dir not in cache:
        cache[rel_dir] = (root / rel_dir / "__init__.py").is_file()
    return cache[rel_dir]


def module_name(rel_path: str, is_package_dir: Callable[[str], bool]) -> tuple[str, bool]:
    """The dotted name a file is imported as, and whether it is a package's ``__init__``.

    Inside a package the name runs from the topmost folder of the unbroken ``__init__.py`` chain
    (so ``src/acme/billing/tasks.py`` is ``acme.billing.tasks``). A file outside any package is
    named by its path from the root, without a leading ``src/`` folder.
    """
    parts = rel_path[: -len(".py")].split("/")
    is_package = parts[-1] == "__init__"
    folders = parts[:-1]
    depth = len(folders)
    while depth > 0 and is_package_dir("/".join(folders[:depth])):
        depth -= 1
    if depth == len(folders):
        if folders and folders[0] == "src":
            folders = folders[1:]
        depth = 0
    names = folders[depth:] + ([] if is_package else [parts[-1]])
    if not names:
        names = [parts[-1]]
    return ".".join(names), is_package
