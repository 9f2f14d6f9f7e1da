"""The key of the action's private venv: what it was made from, so a venv is reused only when
the same interpreter would install exactly the same thing.

    python -I install_key.py ACTION_PATH     # prints the key (hex)

``action.yml`` runs this file by its path, before the tool is installed (standard library only).
The key digests the interpreter (its version and platform), and every file the install reads
from the action's folder: the package, ``pyproject.toml``, the pinned constraints, and a wheel
a release ships in ``dist/`` (installed instead of building from source). On a self-hosted
runner the venv is kept in the runner's tool cache between jobs; elsewhere within the job.
"""

from __future__ import annotations

import hashlib
import platform
import sys
from pathlib import Path


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


if __name__ == "__main__":
    print(install_key(Path(sys.argv[1])))
