"""Which files are scanned, and the importable module name each one has.

Walking is deterministic (sorted), never follows symlinked folders (so a symlink loop cannot trap
it), prunes excluded folders before descending, and knows from the walk itself which folders are
packages, so module names cost no extra file-system calls. A folder it cannot list, or a name that
cannot be written in the ledger (not valid UTF-8), is handed to the caller's ``on_problem``
instead of being skipped without a word.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import git
from ..core.paths import read_regular
from .patterns import GitignoreLine, dir_mark, folder_only
from .patterns import fragment as fragment_of


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


class Excludes:
    """Which paths are left out, with the semantics of ``.gitignore`` (through pathspec): the
    default and configured ``exclude`` patterns, anchored at the root, and, with
    ``respect_gitignore``, every ``.gitignore`` file at or below the root, each anchored at its
    own folder. As in git, the last pattern that matches decides (``!`` re-includes), a deeper
    ``.gitignore`` overrides a higher one, ``exclude`` overrides them all, and nothing below an
    excluded folder is reached (so a negation cannot re-include a file under it).

    As in git, a ``.gitignore`` never leaves out a file git tracks: the tracked files are asked
    of git (``git ls-files``, through :mod:`..git`'s pinned runner) once, when the first
    ``.gitignore`` is met. An ignored folder that holds a tracked file is walked for its tracked
    files only. When the root is in a repository git cannot list (no git on ``PATH``, a broken
    index), the ``.gitignore`` files are not honoured at all: scanning more is never a false
    green. The ``exclude`` patterns are the configuration's own and apply to tracked files too.

    A folder is tested as ``folder/``. Patterns that can only match a folder and what is under it
    (``**/.venv/**``, ``build/``) are tested on folders only, which prunes them; files are tested
    against the others. Without negations that gives the same answers, at a fraction of the cost
    (most trees have no pattern that matches a file by its own name).
    """

    def __init__(
        self, patterns: Iterable[str], root: Path | None = None, *, respect_gitignore: bool = False
    ) -> None:
        self.root = root
        self.respect_gitignore = respect_gitignore
        self.layers: dict[str, _Layer] = {}
        self.top = _Layer.of(list(patterns))
        self._asked = False
        #: Tracked files and the folders above them, relative to the root (``None``: git
        #: cannot say, so no ``.gitignore`` counts); ignored folders kept for tracked files.
        self.tracked: frozenset[str] | None = frozenset()
        self.tracked_dirs: frozenset[str] = frozenset()
        self.kept: set[str] = set()

    def _ask_git(self) -> None:
        if self._asked or self.root is None:
            return
        self._asked = True
        found = tracked_files(self.root)
        self.tracked = found
        if found is not None:
            self.tracked_dirs = frozenset(
                path[:index] for path in found for index, c in enumerate(path) if c == "/"
            )

    def enter(self, rel_dir: str, filenames: Iterable[str]) -> None:
        """Note the folder's ``.gitignore`` (when it has one and gitignore files count)."""
        if not self.respect_gitignore or self.root is None or ".gitignore" not in filenames:
            return
        if rel_dir in self.layers:
            return
        self._ask_git()
        if self.tracked is None:
            return
        try:
            data = read_regular(
                self.root / rel_dir / ".gitignore", root=self.root, limit=_GITIGNORE_BYTES
            )
        except OSError:
            return  # unreadable: nothing is left out because of it
        lines = data.decode("utf-8", "replace").splitlines()
        self.layers[rel_dir] = _Layer.of(lines, lenient=True)

    def excluded(self, rel_path: str, *, is_dir: bool = False) -> bool:
        candidate = rel_path + "/" if is_dir else rel_path
        decision: bool | None = None
        if self.layers:
            folders = [""] + [rel_path[:i] for i, c in enumerate(rel_path) if c == "/"]
            for folder in folders:
                layer = self.layers.get(folder)
                if layer is not None:
                    inside = candidate[len(folder) + 1 :] if folder else candidate
                    found = layer.check(inside, is_dir)
                    decision = found if found is not None else decision
            tracked = self.tracked or frozenset()
            if rel_path in (self.tracked_dirs if is_dir else tracked):
                if decision and is_dir:
                    self.kept.add(rel_path)  # walked for its tracked files only
                decision = None
            elif self.kept and any(folder in self.kept for folder in folders[1:]):
                decision = True
        found = self.top.check(candidate, is_dir)
        return bool(found if found is not None else decision)


def tracked_files(root: Path) -> frozenset[str] | None:
    """The files git tracks under ``root``, relative to it; empty when ``root`` is in no
    repository, ``None`` when it is in one git cannot list (or git is missing)."""
    try:
        repository = git.locate(root)
    except git.GitUnavailable:
        try:
            git.program()
        except git.GitUnavailable:
            return None  # no git: whether a .git above holds the tree is not asked here
        return frozenset()  # git is there and finds no repository: nothing is tracked
    try:
        prefix = repository.inside(root / ".gitignore").rpartition("/")[0]
    except git.GitUnavailable:
        return None
    listed = repository.lines(["ls-files", "-z", "--cached", "--full-name"])
    if listed is None:
        return None
    if not prefix:
        return frozenset(listed)
    start = prefix + "/"
    return frozenset(path[len(start) :] for path in listed if path.startswith(start))


#: A ``.gitignore`` is a few kilobytes; a larger one is not read.
_GITIGNORE_BYTES = 1024 * 1024


class _Layer:
    """One list of gitignore patterns, matched in time that does not grow with their number.

    pathspec compiles every pattern up front and tries each against each path: 40,000 patterns
    cost minutes. Here each line is only indexed, by its longest literal fragment that holds no
    ``/`` (``file_00017.py`` of ``gen/file_00017.py``; ``.pyc`` of ``*.pyc``): a path can match a
    pattern only if one of its parts contains that fragment. A path is then tried against the
    patterns whose fragment it contains and those with none (``*``, ``[ab]?``), each compiled
    (through pathspec's own translation) the first time it is tried, with pathspec's rule for
    which match decides (:meth:`check`, checked against pathspec by
    ``tests/extract/test_linear_bounds.py``). A configured pattern is translated at once (one
    pathspec cannot read is an error); a ``.gitignore`` line it cannot read never matches, as
    in git. Bound: loading is linear in the lines; a check costs one look-up per (part, fragment
    length) window of the path, plus the patterns that may match it.
    """

    def __init__(self, lines: Sequence[str], *, lenient: bool = False) -> None:
        self.patterns: list[GitignoreLine] = []
        self.negations = False
        self.by_fragment: dict[str, list[int]] = {}
        self.wild: list[int] = []
        #: The patterns each path part (a folder's or a file's name) may match, once per name:
        #: a folder's name recurs in the path of every file below it.
        self._by_part: dict[str, tuple[int, ...]] = {}
        for line in lines:
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            pattern = GitignoreLine(line, folder_only(line))
            if not lenient:
                pattern.translate()  # a configured pattern pathspec cannot read: an error now
            index = len(self.patterns)
            self.patterns.append(pattern)
            self.negations = self.negations or text.startswith("!")
            fragment = fragment_of(line)
            if fragment:
                self.by_fragment.setdefault(fragment, []).append(index)
            else:
                self.wild.append(index)
        self.lengths = sorted({len(fragment) for fragment in self.by_fragment})

    @classmethod
    def of(cls, lines: Sequence[str], *, lenient: bool = False) -> _Layer:
        return cls(lines, lenient=lenient)

    def _candidates(self, candidate: str) -> list[int]:
        found = set(self.wild)
        if self.lengths:
            for part in candidate.split("/"):
                hits = self._by_part.get(part)
                if hits is None:
                    hits = self._by_part[part] = self._part(part)
                found.update(hits)
        return sorted(found, reverse=True)

    def _part(self, part: str) -> tuple[int, ...]:
        found: set[int] = set()
        for length in self.lengths:
            if length > len(part):
                break
            for start in range(len(part) - length + 1):
                hit = self.by_fragment.get(part[start : start + length])
                if hit is not None:
                    found.update(hit)
        return tuple(found)

    def check(self, candidate: str, is_dir: bool) -> bool | None:
        """pathspec's ``GitIgnoreSpec`` answer: the last matching pattern that does not match
        only through its folder mark decides, else the last one that matches at all. Without
        negations, a file is tried against the patterns that can match a file by its own name
        (a folder-only one is decided when the walk tests the folder)."""
        weak: bool | None = None
        skip_folder_only = not is_dir and not self.negations
        for index in self._candidates(candidate):
            pattern = self.patterns[index]
            if skip_folder_only and pattern.folder_only:
                continue
            try:
                compiled = pattern.compiled()
            except ValueError:  # pathspec's pattern error (a configured one was tried at load)
                compiled = None
            found = None if compiled is None else compiled.search(candidate)
            if found is None:
                continue
            if not found.groupdict().get(dir_mark()):
                return pattern.include
            if weak is None:
                weak = pattern.include
        return weak


def is_excluded(rel_path: str, patterns: Iterable[str], *, is_dir: bool = False) -> bool:
    """Whether ``rel_path`` (posix, relative to the root) matches the gitignore-style
    ``patterns`` (a folder is tested as ``folder/``, and so are the folders above a file)."""
    excludes = Excludes(patterns)
    parts = rel_path.split("/")
    for depth in range(1, len(parts)):
        if excludes.excluded("/".join(parts[:depth]), is_dir=True):
            return True
    return excludes.excluded(rel_path, is_dir=is_dir)


#: Called with a path relative to the root (``/`` separators, printable) and why it was skipped.
OnProblem = Callable[[str, str], None]


def _ignore(rel: str, reason: str) -> None:
    return None


def iter_source_files(
    root: Path,
    paths: Iterable[str],
    excludes: Iterable[str] | Excludes,
    on_problem: OnProblem = _ignore,
) -> Iterator[SourceFile]:
    """Every ``.py`` file under the configured paths, once each, in sorted order."""
    if not isinstance(excludes, Excludes):
        excludes = Excludes(excludes, root)
    seen: set[str] = set()
    package_dirs: dict[str, bool] = {}
    base = root.resolve()
    for entry in paths:
        start = (base / entry).resolve()
        if start != base and base not in start.parents:
            on_problem(entry, f"it resolves to {start}, outside the project root; not scanned")
            continue
        rel_start = start.relative_to(base).as_posix()
        if _under_excluded(base, "" if rel_start == "." else rel_start, excludes):
            continue
        if start.is_file():
            rel = rel_start
            if rel not in seen and not excludes.excluded(rel):
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
            excludes.enter(rel_dir, filenames)
            in_package = package_dirs[rel_dir]
            dirnames[:] = sorted(
                d
                for d in dirnames
                if _nameable(rel_dir, d, on_problem)
                and not excludes.excluded(_join(rel_dir, d), is_dir=True)
                and (in_package or tool_folder(Path(dirpath) / d) is None)
            )
            for name in sorted(filenames):
                if not name.endswith(".py") or not _nameable(rel_dir, name, on_problem):
                    continue
                rel = _join(rel_dir, name)
                if rel in seen or excludes.excluded(rel):
                    continue
                seen.add(rel)
                yield _source_file(root, rel, package_dirs)


#: The first line of a cache folder's ``CACHEDIR.TAG`` (https://bford.info/cachedir/).
_CACHEDIR_SIGNATURE = b"Signature: 8a477f597d28d172789f06886806bc55"
_BUILD_OUTPUTS = frozenset({"build", "dist"})


def tool_folder(folder: Path) -> str | None:
    """What a folder outside any package is, when it is something tools write rather than
    source: ``"a virtualenv"`` (it holds ``pyvenv.cfg`` or ``conda-meta/``), ``"a cache"`` (a
    ``CACHEDIR.TAG`` with the standard signature) or ``"a build output"`` (named ``build`` or
    ``dist``); ``None`` otherwise. A folder that is a package, or that holds one directly, is
    source whatever it holds or is named: ``src/acme_shop/build/`` with its ``__init__.py`` is
    scanned, and a stray ``pyvenv.cfg`` in ``src/`` hides nothing. The walker asks only about
    folders whose parent is not a package (a package's subfolder is importable), so this costs a
    few ``stat`` calls for each of those and nothing inside packages."""
    what: str | None = None
    if folder.name in _BUILD_OUTPUTS:
        what = "a build output"
    elif (folder / "pyvenv.cfg").is_file() or (folder / "conda-meta").is_dir():
        what = "a virtualenv"
    elif _tagged_cache(folder / "CACHEDIR.TAG"):
        what = "a cache"
    if what is None or (folder / "__init__.py").is_file():
        return None
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False) and os.path.isfile(
                    os.path.join(entry.path, "__init__.py")
                ):
                    return None  # it holds a package: source, not a tool's output
    except OSError:
        return None  # the walk lists it and reports what it cannot list
    return what


def _tagged_cache(tag: Path) -> bool:
    """Read as any file of the tree is (never a FIFO or device): the tag is a few bytes."""
    try:
        return read_regular(tag, limit=4096).startswith(_CACHEDIR_SIGNATURE)
    except (OSError, ValueError):
        return False


def _under_excluded(root: Path, rel: str, excludes: Excludes) -> bool:
    """Whether a configured path lies in an excluded folder (the walk starts below it, so the
    folders above it are tested here; their ``.gitignore`` files count too)."""
    parts = rel.split("/") if rel else []
    for depth in range(len(parts)):
        folder = "/".join(parts[:depth])
        excludes.enter(folder, _names(root / folder))
        if depth and excludes.excluded(folder, is_dir=True):
            return True
    if parts and (root / rel).is_dir():
        return excludes.excluded(rel, is_dir=True)
    return False


def _names(folder: Path) -> list[str]:
    return [".gitignore"] if (folder / ".gitignore").is_file() else []


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
