"""An offline wheelhouse for the action's private venv, repacked from this environment.

The action installs the tool with ``python -I -m pip``: ``-I`` ignores ``PYTHONPATH``, so the venv
cannot borrow this interpreter's packages. Instead each distribution the install needs (the tool's
runtime dependencies and theirs, pytest-xdist, and setuptools for the build backend) is zipped
back into a wheel from its installed files and ``.dist-info``, with the tag its ``WHEEL`` file
names. pip then reads the folder with ``PIP_NO_INDEX=1`` and ``PIP_FIND_LINKS``: no network.
The archives are deterministic (sorted entries, fixed timestamps).
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import re
import sys
import zipfile
from collections.abc import Iterable
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

REPO = Path(__file__).parents[2]

#: Installed by the action beside the tool (pytest-xdist) or needed to build it (setuptools).
EXTRA: tuple[str, ...] = ("pytest-xdist", "setuptools")

#: Files of an installed ``.dist-info`` that belong to the installation, not to the wheel.
_INSTALL_ONLY = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}

_DATE = (1980, 1, 1, 0, 0, 0)


def roots() -> list[str]:
    """The tool's own runtime requirements (from pyproject.toml) and :data:`EXTRA`."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [*project["dependencies"], *EXTRA]


def closure(requirements: Iterable[str]) -> list[importlib.metadata.Distribution]:
    """The installed distributions ``requirements`` need here, dependencies included."""
    found: dict[str, importlib.metadata.Distribution] = {}
    todo = [Requirement(text) for text in requirements]
    while todo:
        requirement = todo.pop()
        name = canonicalize_name(requirement.name)
        if name in found:
            continue
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        dist = importlib.metadata.distribution(name)
        found[name] = dist
        todo += [Requirement(text) for text in dist.requires or ()]
    return [found[name] for name in sorted(found)]


def _hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode("ascii")


def repack(dist: importlib.metadata.Distribution, folder: Path) -> Path:
    """``dist`` as a wheel in ``folder`` (console scripts are left to pip, which makes them)."""
    files = [path for path in dist.files or () if ".." not in path.parts]
    info = next(path.parent for path in files if path.name == "METADATA")
    entries: list[tuple[str, bytes]] = []
    for path in files:
        if "__pycache__" in path.parts or (path.parent == info and path.name in _INSTALL_ONLY):
            continue
        entries.append((path.as_posix(), Path(str(dist.locate_file(path))).read_bytes()))
    entries.sort(key=lambda entry: (entry[0].startswith(f"{info.as_posix()}/"), entry[0]))
    record = f"{info.as_posix()}/RECORD"
    lines = [f"{name},{_hash(data)},{len(data)}" for name, data in entries] + [f"{record},,"]
    entries.append((record, ("\n".join(lines) + "\n").encode()))
    tags = [line.split(":", 1)[1].strip() for line in dist.read_text("WHEEL").splitlines()
            if line.startswith("Tag:")]  # fmt: skip
    # A wheel made for several tags (``py2-none-any`` and ``py3-none-any``) is named by the
    # compressed tag set (``py2.py3-none-any``), or pip would take it for a Python 2 wheel.
    parts = [dict.fromkeys(tag.split("-")[i] for tag in tags) for i in range(3)]
    name = re.sub(r"[-_.]+", "_", dist.metadata["Name"])
    target = folder / f"{name}-{dist.version}-{'-'.join('.'.join(p) for p in parts)}.whl"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for arcname, data in entries:
            entry = zipfile.ZipInfo(arcname, date_time=_DATE)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    return target


#: What the action installs with ``pip --constraint``: the wheelhouse must hold those versions.
CONSTRAINTS = REPO / "pytest_jobledger" / "github" / "constraints.txt"


def unpinned_versions(dists: Iterable[importlib.metadata.Distribution]) -> list[str]:
    """Each distribution here whose version is not the one the constraints file pins."""
    pins: dict[str, str] = {}
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                pins[canonicalize_name(requirement.name)] = str(requirement.specifier)
    wrong = []
    for dist in dists:
        pin = pins.get(canonicalize_name(dist.metadata["Name"]))
        if pin is not None and pin != f"=={dist.version}":
            wrong.append(f"{dist.metadata['Name']} {dist.version} (pinned {pin})")
    return wrong


def build(folder: Path, extra: Iterable[str] = ()) -> Path:
    """Fill ``folder`` with a wheel of every distribution the action's install needs (and of
    ``extra`` requirements, with what they need: the release workflow's ``build`` and ``twine``)."""
    folder.mkdir(parents=True, exist_ok=True)
    dists = closure([*roots(), *extra])
    wrong = unpinned_versions(dists)
    assert not wrong, (
        "the action installs with pytest_jobledger/github/constraints.txt, and this environment "
        f"has other versions: {', '.join(wrong)}; install the test environment with "
        "`pip install -c pytest_jobledger/github/constraints.txt -e '.[test]'` (or bump the pins)"
    )
    for dist in dists:
        repack(dist, folder)
    return folder
