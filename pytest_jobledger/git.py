"""Read-only git, the one runner of the package: a file as it was committed at a ref, and lines.

The gate reads the base's committed ledger and overlay with ``git ls-tree`` and ``git cat-file``
(never a checkout, never a hook or filter: nothing of the scanned repository is run), and the
GitHub presenters ask which files a pull request changed. Every call has a timeout, no terminal
prompt, no pager and no optional locks, and captures everything. A failure is a
:class:`GitUnavailable` whose ``reason`` is a sentence a user can act on (no git, not a
repository, a shallow clone without the commit, an unknown ref, the file absent there).
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .paths import real

#: A hung git (a network filesystem, a lock) must not hang the gate.
GIT_TIMEOUT_S = 10.0

_ENV = {
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


def run(args: Sequence[str], cwd: Path) -> Done:
    """Run ``git args`` in ``cwd``; :class:`GitUnavailable` when git cannot be run at all."""
    env = {**os.environ, **_ENV}
    try:
        done = subprocess.run(
            ["git", "--no-pager", *args],
            cwd=cwd,
            env=env,
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


def lines(args: Sequence[str], cwd: Path) -> list[str] | None:
    """The output of a read-only command as lines (``-z`` output split on NUL); ``None`` on any
    failure, for callers that degrade to "no information"."""
    try:
        done = run(args, cwd)
    except GitUnavailable:
        return None
    if done.returncode != 0:
        return None
    text = done.stdout.decode("utf-8", "surrogateescape")
    return [part for part in text.split("\0" if "\0" in text else "\n") if part]


def toplevel(cwd: Path) -> Path:
    """The work tree's top folder, or why there is none."""
    done = run(["rev-parse", "--show-toplevel"], cwd)
    if done.returncode != 0:
        raise GitUnavailable(f"{cwd} is not inside a git repository ({done.error})")
    return Path(done.stdout.decode("utf-8", "surrogateescape").strip())


def resolve_commit(ref: str, cwd: Path) -> str:
    """The commit ``ref`` names, or why it names none (a shallow clone says so)."""
    if not ref or ref.startswith("-") or any(ch.isspace() or not ch.isprintable() for ch in ref):
        raise GitUnavailable(f"{ref!r} is not a git ref")
    done = run(["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], cwd)
    if done.returncode == 0:
        return done.stdout.decode("ascii", "replace").strip()
    shallow = run(["rev-parse", "--is-shallow-repository"], cwd)
    if shallow.returncode == 0 and shallow.stdout.strip() == b"true":
        raise GitUnavailable(
            f"the ref {ref!r} is not in this shallow clone; fetch the history "
            "(actions/checkout with fetch-depth: 0, or `git fetch --unshallow`)"
        )
    raise GitUnavailable(f"the ref {ref!r} names no commit in this repository (fetch it first?)")


def show(commit: str, path: Path, cwd: Path, *, limit: int) -> bytes:
    """The bytes of ``path`` as committed at ``commit``: never through a checkout or a filter.

    ``path`` is a file of the work tree; it is looked up relative to the top folder. A path that
    is absent there, a symlink, a folder or a submodule, or a blob over ``limit`` bytes is refused
    with the reason.
    """
    top = toplevel(cwd)
    try:
        # The folder's symlinks are followed, the file's own name is not: what was committed
        # under that name is read (and refused if it was a symlink).
        inside = (real(path.parent) / path.name).relative_to(real(top)).as_posix()
    except ValueError as exc:
        raise GitUnavailable(f"{path} is outside the repository at {top}") from exc
    done = run(["ls-tree", "-l", "-z", "--full-tree", commit, "--", inside], top)
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
        raise GitUnavailable(f"{inside} is {int(size):,} bytes at {commit[:12]}, over {limit:,}")
    content = run(["cat-file", "blob", blob], top)
    if content.returncode != 0:
        raise GitUnavailable(f"cannot read {inside} at {commit[:12]} ({content.error})")
    return content.stdout
