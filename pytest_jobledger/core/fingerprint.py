"""What a memo's key says of the tool itself: its own code, and the libraries it reads with.

A memo (the stub's, the read-only commands') is trusted only while the code that made it is the
code that would remake it. :func:`code_digest` hashes how every module of the package looks
(its path, size and modification time: reading every module would cost a read-only command a
tenth of its budget), so an edited checkout, an upgrade or a switched branch never trusts an old
memo. :func:`libraries` says where each library a memo stands in for is installed and how its
entry file looks (an upgrade changes it), found without importing it (that import is the cost a
memo saves).
"""

from __future__ import annotations

import functools
import hashlib
import os
from importlib.machinery import PathFinder


@functools.cache
def code_digest() -> str:
    """The digest of how every module and data file of the tool looks (path, size, mtime)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    found: list[tuple[str, int, int]] = []
    folders = [package]
    while folders:
        folder = folders.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        folders.append(entry.path)
                elif entry.name.endswith((".py", ".json")):
                    info = entry.stat()
                    where = os.path.relpath(entry.path, package)
                    found.append((where, info.st_size, info.st_mtime_ns))
    return hashlib.sha256(repr(sorted(found)).encode()).hexdigest()


def libraries(names: tuple[str, ...]) -> dict[str, object]:
    """Where each library is installed and how its entry file looks (size, mtime)."""
    found: dict[str, object] = {}
    for name in names:
        origin = _origin(name)
        if origin is None:
            found[name] = None
            continue
        try:
            info = os.stat(origin)
        except OSError:
            found[name] = [origin]
            continue
        found[name] = [origin, info.st_size, info.st_mtime_ns]
    return found


def _origin(name: str) -> str | None:
    """The file a dotted module would load from, found on ``sys.path`` without importing it or
    its parents (``importlib.util.find_spec`` would import ``ruamel`` for ``ruamel.yaml``)."""
    search: list[str] | None = None
    spec = None
    for part in name.split("."):
        spec = PathFinder.find_spec(part, search)
        if spec is None:
            return None
        locations = spec.submodule_search_locations
        search = None if locations is None else list(locations)
    return None if spec is None else spec.origin
