"""The stub's memo of a run that had nothing to do, so the next such run reads no YAML.

On a big overlay the stub's cost is ruamel.yaml's round-trip parse (about 5 s of CPU for 3,000
entries), and most runs (pre-commit, ``--check`` in CI, an editor hook) find nothing to do. After
a run that found nothing to add, fill, move or quote, printed no fact and no hint, and read the
committed ledger without a problem, the stub records a memo: the digests of every input that
decides its answer (the overlay's bytes, the fresh ledger, the committed ledger's bytes, the
whole configuration, the options, the tool's version and code, the YAML and schema libraries it
parses with, Python's version), under an HMAC-SHA256 of this machine's key
(:mod:`~pytest_jobledger.extract.cachekey`, kept outside the repository). The next run computes
the same digests and, when the memo on disk is byte for byte the one it would write, answers
"up to date" without parsing. Any other file (a changed input, a missing, corrupt or truncated
memo, one a pull request committed into the cache folder: it cannot compute the code without the
key) is ignored: the full path runs, as without a memo. ``--no-cache`` neither reads nor writes
it.

The memo lives in the content cache's folder (:func:`~pytest_jobledger.extract.folder.cache_folder`,
the same binding to the root) and is written through
:func:`~pytest_jobledger.core.atomic.atomic_write`.
"""

from __future__ import annotations

import hmac
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..core.atomic import atomic_write
from ..core.fingerprint import code_digest
from ..core.fingerprint import libraries as installed
from ..core.paths import read_regular
from ..extract.cachekey import KeyUnavailable, load_key, sign
from ..extract.deps import digest
from ..extract.folder import cache_folder, is_cache_folder, prepare_folder
from ..ledger.model import Ledger
from ..project import Config

#: 1: a JSON head with the HMAC, then the JSON body of input digests.
FORMAT = 1
KIND = "jobledger stub: nothing to do"
#: A memo is a few hundred bytes; anything larger is not one.
MAX_MEMO_BYTES = 64 * 1024
#: The libraries whose reading decides whether the stub accepts an overlay.
LIBRARIES = ("ruamel.yaml", "yaml", "jsonschema")


@dataclass(frozen=True)
class Memo:
    """Where this configuration's memo lives and the exact bytes that mean "nothing to do"."""

    path: Path
    bound: Path
    folder: Path
    folder_bound: Path | None
    expected: bytes

    def holds(self) -> bool:
        """Whether the file on disk is the memo these inputs would make (constant time)."""
        try:
            found = read_regular(self.path, root=self.bound, limit=MAX_MEMO_BYTES)
        except OSError:  # absent, a symlink out of the root, not a regular file, too large
            return False
        return hmac.compare_digest(found, self.expected)

    def record(self) -> None:
        """Write the memo; a cache folder that cannot be written leaves the run as it was."""
        try:
            prepare_folder(self.folder, self.folder_bound)
            atomic_write(self.path, self.expected, root=self.bound)
        except OSError:
            return


def open_memo(
    config: Config,
    *,
    overlay: bytes,
    ledger: Ledger,
    committed: bytes | None,
    options: Mapping[str, object],
) -> Memo | None:
    """The memo for these inputs, or ``None`` when there can be none: ``--no-cache``, a cache
    folder that is not ours, or no key (the extraction cache has said so already)."""
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
    inputs = {
        "kind": KIND,
        "tool": __version__,
        "code": code_digest(),
        "libraries": libraries(),
        "python": sys.version,
        "config": digest(repr(config).encode()),
        "options": json.dumps(options, sort_keys=True, default=repr),
        "overlay": digest(overlay),
        "ledger": digest(_compact(ledger.to_json())),
        "committed": None if committed is None else digest(committed),
    }
    body = json.dumps({"format": FORMAT, "inputs": inputs}, sort_keys=True)
    head = json.dumps({"format": FORMAT, "mac": sign(key, body.encode())})
    where = json.dumps([str(config.root.resolve()), config.files.overlay]).encode()
    path = folder / f"stub-{digest(where)[:20]}.json"
    return Memo(path, bound, folder, folder_bound, f"{head}\n{body}\n".encode())


def _compact(data: object) -> bytes:
    """``data`` as compact, sorted JSON: the C encoder's speed (an indented dump runs Python's)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8", "surrogatepass")


def libraries() -> dict[str, object]:
    """Where each parsing library is installed and how its entry file looks."""
    return installed(LIBRARIES)
