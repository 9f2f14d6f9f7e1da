"""Check the built distributions before anything is published (the release workflow's gate).

``release_check.py DIST [TAG]`` fails, naming the problem, unless ``DIST`` holds exactly one wheel
and one sdist of pyproject.toml's name and version, ``TAG`` (when given) is ``v<version>``, the
wheel carries the files the tool needs at run time (its JSON Schemas and ``py.typed``), and the
sdist carries no tests (their case folders are not shipped, so a
partial test suite would only fail). ``release_check.py --version`` prints the version.
"""

from __future__ import annotations

import sys
import tarfile
import zipfile
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[1]
WHEEL_NEEDS = (
    "pytest_jobledger/py.typed",
    "pytest_jobledger/schemas/overlay.schema.json",
    "pytest_jobledger/schemas/ledger.schema.json",
    "pytest_jobledger/docs/static/jobledger.css",
)


def project() -> tuple[str, str]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        table = tomllib.load(handle)["project"]
    return table["name"], table["version"]


def problems(dist: Path, tag: str) -> list[str]:
    name, version = project()
    stem = f"{name.replace('-', '_')}-{version}"
    found: list[str] = []
    wheels = sorted(dist.glob("*.whl"))
    sdists = sorted(dist.glob("*.tar.gz"))
    if [w.name for w in wheels] != [f"{stem}-py3-none-any.whl"]:
        named = [w.name for w in wheels]
        found.append(f"expected one wheel {stem}-py3-none-any.whl, found {named}")
    if [s.name for s in sdists] != [f"{stem}.tar.gz"]:
        found.append(f"expected one sdist {stem}.tar.gz, found {[s.name for s in sdists]}")
    if tag and tag != f"v{version}":
        found.append(f"the tag {tag} does not match pyproject.toml's version {version}")
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            names = set(archive.namelist())
        found += [f"{wheel.name} lacks {need}" for need in WHEEL_NEEDS if need not in names]
    for sdist in sdists:
        with tarfile.open(sdist) as archive:
            members = [m.name.split("/", 1)[-1] for m in archive.getmembers()]
        tests = sorted(m for m in members if m.startswith("tests/"))
        if tests:
            found.append(f"{sdist.name} carries {len(tests)} test files without their cases")
    return found


def main(argv: list[str]) -> int:
    if argv == ["--version"]:
        print(project()[1])
        return 0
    if not 1 <= len(argv) <= 2:
        print("usage: release_check.py DIST [TAG] | --version", file=sys.stderr)
        return 2
    found = problems(Path(argv[0]), argv[1] if len(argv) == 2 else "")
    for problem in found:
        print(f"release check: {problem}", file=sys.stderr)
    if not found:
        print(f"release check: {len(list(Path(argv[0]).iterdir()))} distributions are ready")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
