"""The key that makes a content-cache snapshot this machine's own.

A checkout can carry a cache folder: a pull request may commit ``.jobledger_cache/`` with a
snapshot whose content digests match (anyone can compute them) and whose rows hide a job. So a
snapshot is trusted only when it carries an HMAC-SHA256 (:mod:`hmac`) under a key that never
lives in the repository: 32 random bytes (:mod:`secrets`) in a file of mode 0600, in
``$JOBLEDGER_KEY_DIR``, else ``$XDG_CACHE_HOME/pytest-jobledger``, else
``~/.cache/pytest-jobledger``. A key folder inside the project root is refused (the cache is then
off), as is a key file that is not a regular file of ours, readable by us alone.

The first run creates the key: written to a file of its own, then linked into place, so two runs
at once agree on one whole key.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
from collections.abc import Mapping
from pathlib import Path

from ..core import environment
from ..core.outside import create_private_file
from ..core.paths import is_inside

ENV = environment.KEY_DIR
NAME = "cache-key"
_KEY_BYTES = 32


class KeyUnavailable(Exception):
    """No key can be had; ``reason`` says why, for the one warning that the cache is off."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def key_folder(environ: Mapping[str, str] | None = None) -> Path:
    """Where the key lives: ``$JOBLEDGER_KEY_DIR``, else the user's cache folder."""
    named = environment.read(ENV, environ).strip()
    env = os.environ if environ is None else environ
    if named:
        return Path(named).expanduser().resolve()
    xdg = env.get("XDG_CACHE_HOME", "").strip()
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return (base / "pytest-jobledger").resolve()


def load_key(root: Path, folder: Path | None = None) -> bytes:
    """This machine's key (created on first use), or :class:`KeyUnavailable`."""
    if folder is None:
        try:
            folder = key_folder()
        except (RuntimeError, KeyError) as exc:  # no home folder to be found
            raise KeyUnavailable(f"no folder for the cache key ({exc}); set {ENV}") from exc
    if is_inside(folder, root):
        raise KeyUnavailable(
            f"the cache key folder {folder} is inside the project root, where a checkout could "
            f"carry a key; set {ENV} to a folder outside it"
        )
    path = folder / NAME
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    except OSError as exc:  # a symlink (O_NOFOLLOW), no permission
        raise KeyUnavailable(
            f"the cache key {path} cannot be read ({exc.strerror or exc})"
        ) from exc
    try:
        create_private_file(path, secrets.token_bytes(_KEY_BYTES))
        return _read(path)
    except OSError as exc:
        raise KeyUnavailable(
            f"the cache key {path} cannot be created or read ({exc.strerror or exc})"
        ) from exc


def sign(key: bytes, body: bytes) -> str:
    """The snapshot's authentication code."""
    return hmac.new(key, body, hashlib.sha256).hexdigest()


def verify(key: bytes, body: bytes, mac: object) -> bool:
    """Whether ``mac`` is this key's code for ``body`` (compared in constant time)."""
    return isinstance(mac, str) and hmac.compare_digest(sign(key, body), mac)


def _read(path: Path) -> bytes:
    """The key file's bytes: a regular file of ours (not a symlink), readable by us alone."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise KeyUnavailable(f"the cache key {path} is not a regular file")
        if os.name == "posix" and (info.st_uid != os.getuid() or info.st_mode & 0o077):
            raise KeyUnavailable(
                f"the cache key {path} is not private to this user (mode 0600, owned by us); "
                "delete it and a new one is made"
            )
        key = os.read(fd, _KEY_BYTES + 1)
    finally:
        os.close(fd)
    if len(key) != _KEY_BYTES:
        raise KeyUnavailable(f"the cache key {path} is not a key; delete it and a new one is made")
    return key
