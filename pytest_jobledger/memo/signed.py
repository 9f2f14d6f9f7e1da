"""One memo file: signed with this machine's key, named for its project and kind, and trusted
only when it is whole, its HMAC verifies and its inputs are exactly the ones given now."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import hashlib
import hmac
import io
import json
import pickle
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__
from ..core.atomic import atomic_write
from ..core.fingerprint import code_digest
from ..core.paths import read_regular
from ..extract.cachekey import KeyUnavailable, load_key, sign, verify
from ..extract.folder import cache_folder, is_cache_folder, prepare_folder
from ..project import Config

#: Far above the memo of any real project (a 3,000-entry overlay pickles to about 2 MB).
MAX_MEMO_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Signed:
    """Where one memo lives, the key it is signed with and the inputs it must have been made of."""

    path: Path
    bound: Path
    folder: Path
    folder_bound: Path | None
    key: bytes = b""
    inputs: bytes = b""

    def read(self) -> bytes | None:
        """The payload, or ``None``: absent, too large, not signed by this key, other inputs."""
        try:
            raw = read_regular(self.path, root=self.bound, limit=MAX_MEMO_BYTES)
        except OSError:  # absent, a symlink out of the root, not a regular file, too large
            return None
        head, newline, body = raw.partition(b"\n")
        if not newline or not verify(self.key, body, head.decode("ascii", "replace")):
            return None
        inputs, newline, payload = body.partition(b"\n")
        if not newline or not hmac.compare_digest(inputs, self.inputs):
            return None
        return payload

    def write(self, payload: bytes) -> None:
        """Record the payload; a cache folder that cannot be written leaves the run as it was."""
        body = self.inputs + b"\n" + payload
        try:
            prepare_folder(self.folder, self.folder_bound)
            atomic_write(self.path, sign(self.key, body).encode() + b"\n" + body, root=self.bound)
        except OSError:
            return


def open_signed(config: Config, kind: str, inputs: Mapping[str, object]) -> Signed | None:
    """The memo ``kind`` of this project for these inputs, or ``None`` when there can be none:
    ``--no-cache``, a cache folder that is not ours, or no key."""
    if not config.cache.enabled:
        return None
    folder, folder_bound = cache_folder(config)
    bound = folder if folder_bound is None else folder_bound
    if folder.exists() and not is_cache_folder(folder, bound):
        return None
    try:
        key = load_key(config.root)
    except KeyUnavailable:
        return None
    full = {
        "kind": kind,
        "tool": __version__,
        "code": code_digest(),
        "python": sys.version,
        "config": sha256(repr(config).encode()),
        **inputs,
    }
    text = json.dumps(full, sort_keys=True, default=repr, ensure_ascii=True)
    where = json.dumps([str(config.root.resolve()), kind]).encode()
    path = folder / f"{kind}-{sha256(where)[:20]}.memo"
    return Signed(path, bound, folder, folder_bound, key, text.encode("ascii"))


#: The only classes a memo's payload may name besides this package's records (dataclasses and
#: enums): the containers and dates a parsed overlay, roster or ledger holds.
_PLAIN = frozenset({frozenset, set, datetime.date, datetime.datetime, datetime.timezone})


class _DataOnly(pickle.Unpickler):
    """An unpickler that builds records and nothing else: a payload naming any other callable
    (a function, a class of another library) is refused, so even a memo signed with a stolen
    key is data, never code."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "pytest_jobledger" or module.startswith("pytest_jobledger."):
            found = super().find_class(module, name)
            if isinstance(found, type) and (
                dataclasses.is_dataclass(found) or issubclass(found, enum.Enum)
            ):
                return found
        elif module in ("builtins", "datetime"):
            found = super().find_class(module, name)
            if found in _PLAIN:
                return found
        raise pickle.UnpicklingError(f"a memo holds records only, not {module}.{name}")


def pickled(value: object) -> bytes:
    """``value`` (records: this package's dataclasses and enums, containers, dates) as a
    payload."""
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def unpickled(payload: bytes) -> object | None:
    """The records a payload holds, or ``None`` when it names anything else or is not a
    pickle of this version's classes (then the full path runs)."""
    try:
        value: object = _DataOnly(io.BytesIO(payload)).load()
    except Exception:
        return None
    return value


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
