"""The action's private venv: its key (what it was made from), where it lives, whether the one
there may be reused, and the pip that fills a new one.

    python -I install_key.py ACTION_PATH     # four lines: venv folder, reuse|build, key, pip wheel

``action.yml``'s install step runs this file by its path, before the tool is installed (standard
library only). The key digests the interpreter (its version, platform and path) and every file
the install reads from the action's folder: the package, ``pyproject.toml``, the pinned
constraints, and a wheel a release ships in ``dist/`` (installed instead of building from source).

On a self-hosted runner the venv lives in the runner's tool cache, kept between jobs (the install
step makes its folder there: act names a tool cache it never makes); elsewhere in the job's
temporary folder. A venv is reused only when it is provably the one this action built for this
key: its marker holds the key, this user owns it and nobody else may write it, and it is not in
the checkout (the pull request's files, which could carry a planted one). This file only reads and
decides: the install step writes (the venv, built in a private folder beside its place and renamed
into it with its marker when finished).

A new venv is made without pip (``ensurepip`` alone takes seconds) and filled by the pip wheel
this interpreter bundles for ``ensurepip``; without one, the venv is made with its own pip.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import platform
import stat
import sys
import sysconfig
from collections.abc import Mapping
from pathlib import Path

#: The file a finished install writes in the venv: the key it was made for.
MARKER = "jobledger-installed"


def install_key(action: Path) -> str:
    """A short hex digest of the interpreter and of what the install reads from ``action``."""
    digest = hashlib.sha256()
    digest.update(f"{sys.version}\n{platform.platform()}\n{sys.executable}\n".encode())
    files = [action / "pyproject.toml"]
    for folder in ("pytest_jobledger", "dist"):
        files += sorted(path for path in (action / folder).rglob("*") if path.is_file())
    for path in files:
        if "__pycache__" in path.parts or not path.is_file():
            continue
        digest.update(path.relative_to(action).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:24]


def venv_folder(environ: Mapping[str, str], key: str) -> Path:
    """The runner's tool cache on a self-hosted runner (``pytest-jobledger/`` there, which the
    install step makes), else the job's temporary folder (``RUNNER_TEMP``, ``TMPDIR``, ``/tmp``)."""
    tools = environ.get("RUNNER_TOOL_CACHE", "")
    if environ.get("RUNNER_ENVIRONMENT") == "self-hosted" and os.path.isabs(tools):
        folder = Path(tools) / "pytest-jobledger"
        if folder.is_dir() and os.access(folder, os.W_OK):
            return folder / f"venv-{key}"
    temp = environ.get("RUNNER_TEMP") or environ.get("TMPDIR") or "/tmp"
    return Path(temp) / f"jobledger-venv-{key}"


def _inside(path: Path, folder: Path) -> bool:
    return path.resolve().is_relative_to(folder.resolve())


def _private(path: Path) -> bool:
    """Not a link, owned by this user, and writable by nobody else."""
    try:
        status = path.lstat()
    except OSError:
        return False
    if stat.S_ISLNK(status.st_mode):
        return False
    if hasattr(os, "getuid") and status.st_uid != os.getuid():
        return False
    return not status.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def reusable(venv: Path, key: str, environ: Mapping[str, str]) -> bool:
    """Whether ``venv`` is the one this action built for ``key`` (see the module's docstring)."""
    workspace = environ.get("GITHUB_WORKSPACE", "")
    if workspace and _inside(venv, Path(workspace)):
        return False
    marker = venv / MARKER
    if not all(_private(path) for path in (venv, marker, venv / "pyvenv.cfg")):
        return False
    try:
        return marker.read_text(encoding="ascii").strip() == key
    except (OSError, UnicodeDecodeError):
        return False


def bundled_pip() -> Path | None:
    """The pip wheel ``ensurepip`` would install: CPython's bundled one, or the one in the folder
    a distribution names instead (``WHEEL_PKG_DIR``: Debian's ``/usr/share/python-wheels``)."""
    folders = []
    spec = importlib.util.find_spec("ensurepip")
    if spec is not None and spec.origin:
        folders.append(Path(spec.origin).parent / "_bundled")
    named = sysconfig.get_config_var("WHEEL_PKG_DIR")
    if named:
        folders.append(Path(str(named)))
    for folder in folders:
        wheels = sorted(folder.glob("pip-*.whl")) if folder.is_dir() else []
        if wheels:
            return wheels[-1]
    return None


def plan(action: Path, environ: Mapping[str, str]) -> list[str]:
    """The four lines the install step reads: venv folder, ``reuse`` or ``build``, key, pip."""
    key = install_key(action)
    venv = venv_folder(environ, key)
    pip = bundled_pip()
    lines = [str(venv), "reuse" if reusable(venv, key, environ) else "build", key, str(pip or "")]
    if any("\n" in line or "\r" in line for line in lines):
        raise SystemExit(f"install_key.py: a path with a line break: {lines!r}")
    return lines


if __name__ == "__main__":
    print("\n".join(plan(Path(sys.argv[1]), os.environ)))
