"""How the programs the package starts are found and what environment they get, defined once
for every runner (``git.py``, ``verdict/sshkeygen.py``).

A program is looked up on ``PATH``'s absolute entries only: a relative entry such as ``.`` would
find a program of the checkout. Its environment is built, never inherited: the absolute ``PATH``
entries, a scratch ``HOME`` and the few variables a process needs on Windows to start at all.
Nothing here starts a process (``tests/test_git_boundary.py`` names the modules that may).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

#: Variables a process needs on Windows to start at all.
KEPT_ENV: tuple[str, ...] = ("SYSTEMROOT", "WINDIR")


def absolute_path_entries(environ: Mapping[str, str]) -> list[str]:
    """``PATH``'s absolute entries, in order (the default search path when ``PATH`` is unset)."""
    path = environ.get("PATH", os.defpath).split(os.pathsep)
    return [entry for entry in path if entry and os.path.isabs(entry)]


def find_program(name: str, environ: Mapping[str, str] | None = None) -> str | None:
    """The absolute path of the executable ``name`` on ``PATH``'s absolute entries, or ``None``."""
    env = os.environ if environ is None else environ
    names = (name, name + ".exe") if os.name == "nt" else (name,)
    for entry in absolute_path_entries(env):
        for each in names:
            candidate = os.path.join(entry, each)
            if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                return candidate
    return None


def base_environment(home: Path, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment every started program begins with: the kept variables, ``PATH`` (its
    absolute entries) and ``home`` as ``HOME``; each runner adds its own fixed settings."""
    env = os.environ if environ is None else environ
    built = {name: env[name] for name in KEPT_ENV if name in env}
    built["PATH"] = os.pathsep.join(absolute_path_entries(env))
    built["HOME"] = str(home)
    return built
