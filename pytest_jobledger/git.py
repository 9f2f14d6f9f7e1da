"""Read-only git, the one place of the package that starts git.

The gate reads the base's committed ledger and overlay with ``git ls-tree`` and ``git cat-file``,
and the GitHub presenters ask which files (and lines) a pull request changed. The scanned tree may
be a hostile pull request, and git obeys the folder it is started in: a folder laid out as a git
directory (``HEAD``, ``config``, ``objects/``, ``refs/``) is a repository to git, and its
``config`` names programs (``core.fsmonitor``, ``diff.external``, drivers, hooks). So no call here
lets git discover anything:

- the repository is located once, by :func:`locate`, from the project root upwards: the first
  ``.git`` folder or gitfile (``gitdir: ...``, as a worktree has), stopping below a folder of
  ``GIT_CEILING_DIRECTORIES``. A folder is never taken for a bare repository;
- every call is pinned with ``--git-dir`` and ``--work-tree``, runs from a scratch folder of ours
  (never a folder of the tree), with ``--literal-pathspecs`` and :data:`OVERRIDES` (no fsmonitor,
  hooks from an empty folder, no pager, credential helper or transport, bare repositories only
  when named); diffs add :data:`DIFF_OPTIONS` (no external diff, textconv or submodule), and blobs
  are read with plain ``cat-file blob`` (no filter runs);
- the environment is built, not inherited: ``PATH`` (its absolute entries only, so a ``git`` in
  the current folder is never found), ``HOME`` and ``XDG_CONFIG_HOME`` in the scratch folder (no
  user or system configuration: only the repository's own ``.git/config``, which a clone writes
  and a commit cannot, plus our overrides), ``GIT_CONFIG_NOSYSTEM``, no other ``GIT_*`` variable.

Every call has a timeout and captures everything. A failure is a :class:`GitUnavailable` whose
``reason`` is a sentence a user can act on (no git, not a repository, a shallow clone without the
commit, an unknown ref, the file absent there). ``tests/test_git_boundary.py`` fails on any other
module that could start a process.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .core.outside import scratch_folder
from .core.paths import real
from .programs import base_environment, find_program

#: A hung git (a network filesystem, a lock) must not hang the gate.
GIT_TIMEOUT_S = 10.0
#: A gitfile is one line; a larger ``.git`` file is not one.
_MAX_GITFILE_BYTES = 4096

#: ``-c`` settings on every call, over any the repository's configuration holds (and
#: ``core.hooksPath`` at an empty folder). Programs not named here cannot run either:
#: ``diff.external`` and drivers are off by :data:`DIFF_OPTIONS`, ``core.sshCommand`` and
#: ``core.askPass`` need a transport (none is allowed), ``gpg.program`` a signature check (none is
#: asked for), filters a checkout or ``cat-file --filters`` (never used).
OVERRIDES: tuple[str, ...] = (
    "safe.bareRepository=explicit",
    "core.fsmonitor=false",
    "core.untrackedCache=false",
    "core.pager=cat",
    "core.attributesFile=" + os.devnull,
    "credential.helper=",
    "protocol.allow=never",
    "log.showSignature=false",
    "submodule.recurse=false",
    "gc.auto=0",
    "maintenance.auto=false",
    "color.ui=false",
)
#: Options of every ``git diff``: nothing the repository configures is run to make a diff.
DIFF_OPTIONS: tuple[str, ...] = ("--no-ext-diff", "--no-textconv", "--ignore-submodules=all")

_FIXED_ENV: Mapping[str, str] = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_ATTR_NOSYSTEM": "1",
    "GIT_NO_REPLACE_OBJECTS": "1",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_OPTIONAL_LOCKS": "0",
    "GIT_PAGER": "cat",
    "PAGER": "cat",
    "LC_ALL": "C",
}
#: ``<mode> SP <type> SP <object> SP <size> TAB <path>`` from ``git ls-tree -l``.
_TREE_ROW = re.compile(r"(\d+) (\w+) ([0-9a-f]+) +(\S+)\t")


class GitUnavailable(Exception):
    """git could not answer; ``reason`` says why, in words for a one-line message."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NotAtCommit(GitUnavailable):
    """The commit exists, but the file was not there (a file added since is no error)."""


@dataclass(frozen=True)
class Done:
    """A finished git command: its exit code and its output as bytes."""

    returncode: int
    stdout: bytes
    stderr: bytes

    @property
    def error(self) -> str:
        """git's own first line of complaint (``fatal: ...``), for a message."""
        lines = self.stderr.decode("utf-8", "replace").strip().splitlines()
        return lines[0] if lines else f"git exited with {self.returncode}"


def program(environ: Mapping[str, str] | None = None) -> str:
    """The absolute path of git on ``PATH``'s absolute entries (a relative entry such as ``.``
    would find a ``git`` of the checkout), or :class:`GitUnavailable`."""
    found = find_program("git", environ)
    if found is None:
        raise GitUnavailable("git is not installed (or not on PATH)")
    return found


def environment(home: Path, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """git's whole environment: ``PATH`` (absolute entries), a scratch ``HOME``, the fixed
    settings; nothing else."""
    built = base_environment(home, environ)
    built["XDG_CONFIG_HOME"] = str(home / ".config")
    built.update(_FIXED_ENV)
    return built


def _ceilings(environ: Mapping[str, str]) -> set[Path]:
    value = environ.get("GIT_CEILING_DIRECTORIES", "")
    return {real(entry) for entry in value.split(os.pathsep) if entry and os.path.isabs(entry)}


def _gitfile_target(gitfile: Path) -> Path:
    """The folder a gitfile (``gitdir: <path>``, relative to the file's folder) names."""
    try:
        with gitfile.open("rb") as handle:
            text = handle.read(_MAX_GITFILE_BYTES + 1)
    except OSError as exc:
        raise GitUnavailable(f"{gitfile} cannot be read ({exc.strerror})") from exc
    line = text.decode("utf-8", "surrogateescape").strip()
    if len(text) > _MAX_GITFILE_BYTES or not line.startswith("gitdir: ") or "\n" in line:
        raise GitUnavailable(f"{gitfile} is neither a git folder nor a gitfile (gitdir: <path>)")
    target = Path(line[len("gitdir: ") :])
    return real(target if target.is_absolute() else gitfile.parent / target)


@dataclass(frozen=True)
class Repository:
    """A repository pinned by its git folder and work tree; every git command runs through
    :meth:`run`."""

    git_dir: Path
    work_tree: Path
    executable: str

    def run(self, args: Sequence[str]) -> Done:
        """Run ``git args`` pinned to this repository, from a scratch folder, with the fixed
        environment and overrides; :class:`GitUnavailable` when git cannot be run at all."""
        with tempfile.TemporaryDirectory(prefix="jobledger-git-") as folder:
            scratch = Path(folder)
            hooks = scratch_folder(scratch, "hooks")
            settings = [*OVERRIDES, f"core.hooksPath={hooks}"]
            argv = [
                self.executable,
                "--no-pager",
                "--literal-pathspecs",
                f"--git-dir={self.git_dir}",
                f"--work-tree={self.work_tree}",
                *(part for setting in settings for part in ("-c", setting)),
                *args,
            ]
            try:
                done = subprocess.run(
                    argv,
                    cwd=scratch,
                    env=environment(scratch),
                    capture_output=True,
                    stdin=subprocess.DEVNULL,
                    timeout=GIT_TIMEOUT_S,
                    check=False,
                )
            except FileNotFoundError as exc:
                raise GitUnavailable("git is not installed (or not on PATH)") from exc
            except subprocess.TimeoutExpired as exc:
                raise GitUnavailable(f"git did not answer within {GIT_TIMEOUT_S:g} s") from exc
            except (OSError, subprocess.SubprocessError) as exc:
                raise GitUnavailable(f"git cannot be run: {exc}") from exc
        return Done(done.returncode, done.stdout, done.stderr)

    def lines(self, args: Sequence[str]) -> list[str] | None:
        """The output as lines (``-z`` output split on NUL); ``None`` on any failure."""
        try:
            done = self.run(args)
        except GitUnavailable:
            return None
        if done.returncode != 0:
            return None
        text = done.stdout.decode("utf-8", "surrogateescape")
        return [part for part in text.split("\0" if "\0" in text else "\n") if part]

    def inside(self, path: Path) -> str:
        """``path`` relative to the work tree (its folder's symlinks followed, its own name
        not), or :class:`GitUnavailable` when it is outside."""
        try:
            return (real(path.parent) / path.name).relative_to(self.work_tree).as_posix()
        except ValueError as exc:
            raise GitUnavailable(f"{path} is outside the repository at {self.work_tree}") from exc

    def diff(self, args: Sequence[str]) -> list[str] | None:
        """``git diff`` with :data:`DIFF_OPTIONS`, as :meth:`lines`."""
        return self.lines(["diff", *DIFF_OPTIONS, *args])

    def resolve_commit(self, ref: str) -> str:
        """The commit ``ref`` names, or why it names none (a shallow clone says so)."""
        if (
            not ref
            or ref.startswith("-")
            or any(ch.isspace() or not ch.isprintable() for ch in ref)
        ):
            raise GitUnavailable(f"{ref!r} is not a git ref")
        done = self.run(["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"])
        if done.returncode == 0:
            return done.stdout.decode("ascii", "replace").strip()
        shallow = self.run(["rev-parse", "--is-shallow-repository"])
        if shallow.returncode == 0 and shallow.stdout.strip() == b"true":
            raise GitUnavailable(
                f"the ref {ref!r} is not in this shallow clone; fetch the history "
                "(actions/checkout with fetch-depth: 0, or `git fetch --unshallow`)"
            )
        raise GitUnavailable(
            f"the ref {ref!r} names no commit in this repository (fetch it first?)"
        )

    def show(self, commit: str, path: Path, *, limit: int) -> bytes:
        """The bytes of ``path`` as committed at ``commit``: never through a checkout or filter.

        A path absent there, a symlink, a folder or a submodule, or a blob over ``limit`` bytes
        is refused with the reason.
        """
        inside = self.inside(path)
        done = self.run(["ls-tree", "-l", "-z", "--full-tree", commit, "--", inside])
        if done.returncode != 0:
            raise GitUnavailable(f"cannot list {inside} at {commit[:12]} ({done.error})")
        row = _TREE_ROW.match(done.stdout.decode("utf-8", "surrogateescape"))
        if row is None:
            raise NotAtCommit(f"{inside} does not exist at {commit[:12]}")
        mode, kind, blob, size = row.groups()
        if kind != "blob" or mode == "120000":
            what = "a symlink" if mode == "120000" else f"a {kind}"
            raise GitUnavailable(f"{inside} is {what} at {commit[:12]}, not a regular file")
        if int(size) > limit:
            raise GitUnavailable(
                f"{inside} is {int(size):,} bytes at {commit[:12]}, over {limit:,}"
            )
        content = self.run(["cat-file", "blob", blob])
        if content.returncode != 0:
            raise GitUnavailable(f"cannot read {inside} at {commit[:12]} ({content.error})")
        return content.stdout


def locate(root: Path, environ: Mapping[str, str] | None = None) -> Repository:
    """The repository the project at ``root`` belongs to: the nearest ``.git`` folder or gitfile
    at or above ``root``, never above a ``GIT_CEILING_DIRECTORIES`` folder."""
    env = os.environ if environ is None else environ
    executable = program(env)
    start = real(root)
    ceilings = _ceilings(env)
    folder = start
    while True:
        marker = folder / ".git"
        if marker.is_dir():
            return Repository(real(marker), folder, executable)
        if marker.is_file():
            return Repository(_gitfile_target(marker), folder, executable)
        parent = folder.parent
        if parent == folder or parent in ceilings:
            break
        folder = parent
    raise GitUnavailable(f"{start} is not inside a git repository (no .git folder above it)")


# -- the functions the callers use, each locating the repository from the project root -------


def run(args: Sequence[str], root: Path) -> Done:
    """Run ``git args`` in the repository of the project at ``root``."""
    return locate(root).run(args)


def lines(args: Sequence[str], root: Path) -> list[str] | None:
    """As :meth:`Repository.lines`; ``None`` also when there is no repository or git."""
    try:
        repository = locate(root)
    except GitUnavailable:
        return None
    return repository.lines(args)


def resolve_commit(ref: str, root: Path) -> str:
    """As :meth:`Repository.resolve_commit`, in the repository of the project at ``root``."""
    if not ref or ref.startswith("-") or any(ch.isspace() or not ch.isprintable() for ch in ref):
        raise GitUnavailable(f"{ref!r} is not a git ref")
    return locate(root).resolve_commit(ref)


def show(commit: str, path: Path, root: Path, *, limit: int) -> bytes:
    """As :meth:`Repository.show`, in the repository of the project at ``root``."""
    return locate(root).show(commit, path, limit=limit)
