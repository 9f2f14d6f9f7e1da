"""A hostile pull request: files that run code if the action ever imports or executes them.

Each file touches a marker named after itself (``<where>+<path>``, ``/`` as ``+``) in a folder the
test owns, given here as an absolute path, so no environment filtering can hide a run. A file
that shadows a real module (``shlex``, ``yaml``, ``pip``...) then puts the real module in its place,
as a quiet attacker would: the run goes on, and an old action shows every route that reached it.
"""

from __future__ import annotations

from pathlib import Path

#: Modules and packages a pull request can plant at the top of its tree to shadow the real ones:
#: stdlib modules the action's interpreters import, the tool's dependencies, the tool itself,
#: and the modules the install step runs with ``-m``.
SHADOWS: tuple[str, ...] = (
    "shlex.py",
    "yaml/__init__.py",
    "pytest_jobledger/__init__.py",
    "venv/__init__.py",
    "venv/__main__.py",
    "pip/__init__.py",
    "pip/__main__.py",
)

#: Files Python itself runs at startup when their folder is on ``sys.path`` (or a site folder).
STARTUP: tuple[str, ...] = ("sitecustomize.py", "usercustomize.py", "evil.pth")

#: Files pytest imports: a conftest, a plugin named by ``-p`` and a module ``python_files`` picks.
PYTEST_FILES: tuple[str, ...] = ("conftest.py", "evil_plugin.py", "check_evil.py")

#: The pytest settings a repository's ini file would use to run its code.
INI_OPTIONS: dict[str, str] = {
    "pythonpath": ". vendor",
    "python_files": "*.py",
    "addopts": "-p evil_plugin",
    "required_plugins": "evil-plugin",
}

INI_FILES: tuple[str, ...] = ("pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml", "pytest.toml")

_TOUCH = """\
# A hostile pull request's {path}: if this runs, the action ran the pull request's code.
import os as _os
open(_os.path.join({markers!r}, {label!r}), "a").close()
"""

_DELEGATE = """\
import importlib as _importlib
import sys as _sys

_top = _os.path.realpath(_os.path.dirname({parents}))
_saved = _sys.path[:]
_self = _sys.modules.pop(__name__)
_sys.path[:] = [p for p in _sys.path if _os.path.realpath(p or ".") != _top]
try:
    _sys.modules[__name__] = _importlib.import_module(__name__)
except ImportError:
    _sys.modules[__name__] = _self
finally:
    _sys.path[:] = _saved
"""


def label(where: str, path: str) -> str:
    return f"{where}/{path}".strip("/").replace("/", "+")


def trojan(path: str, markers: Path, where: str) -> str:
    """The text of a hostile ``path``: it touches its marker, then stands aside if it shadows."""
    name = label(where, path)
    if path.endswith(".pth"):
        return f"import os; open(os.path.join({str(markers)!r}, {name!r}), 'a').close()\n"
    text = _TOUCH.format(path=path, markers=str(markers), label=name)
    if path.endswith("__main__.py") or path in PYTEST_FILES or path == "policy.py":
        return text
    depth = path.count("/")  # a package's __init__ sits one folder below the top
    parents = "_os.path.abspath(__file__)"
    for _ in range(depth):
        parents = f"_os.path.dirname({parents})"
    return text + _DELEGATE.format(parents=parents)


def write(folder: Path, path: str, text: str) -> None:
    target = folder / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")


def plant(folder: Path, markers: Path, where: str, files: tuple[str, ...]) -> None:
    for path in files:
        write(folder, path, trojan(path, markers, where))


def plant_all(folder: Path, markers: Path, where: str) -> None:
    """Every code file of a hostile pull request, in ``folder`` (``where`` names it in markers)."""
    plant(folder, markers, where, (*SHADOWS, *STARTUP, *PYTEST_FILES))


def ini_text(kind: str, options: dict[str, str]) -> str:
    """``options`` as the pytest section of an ini file of ``kind`` (a file name)."""
    if kind in ("pyproject.toml", "pytest.toml"):
        table = "[tool.pytest.ini_options]" if kind == "pyproject.toml" else "[pytest]"
        lines = [f"{key} = {value.split()!r}" for key, value in options.items()]
        return "\n".join([table, *lines]).replace("'", '"') + "\n"
    section = "[tool:pytest]" if kind == "setup.cfg" else "[pytest]"
    return "\n".join([section, *(f"{key} = {value}" for key, value in options.items())]) + "\n"


def write_ini(folder: Path, kind: str, options: dict[str, str] = INI_OPTIONS) -> None:
    """Add the pytest settings to ``folder``'s ``kind`` file (appended to a pyproject.toml)."""
    target = folder / kind
    before = target.read_text(encoding="utf-8") + "\n" if target.exists() else ""
    # A bundled example's own (empty) table would be declared twice.
    before = before.replace("[tool.pytest.ini_options]\n", "")
    target.write_text(before + ini_text(kind, options), encoding="utf-8")


def overlay_is_code(folder: Path, markers: Path, where: str) -> None:
    """``[tool.jobledger] overlay = "policy.py"``: an old action handed it to pytest to collect."""
    pyproject = folder / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8") if pyproject.exists() else "[tool.jobledger]\n"
    lines = [line for line in text.splitlines() if not line.startswith("overlay =")]
    at = lines.index("[tool.jobledger]") + 1
    text = "\n".join([*lines[:at], 'overlay = "policy.py"', *lines[at:]]) + "\n"
    pyproject.write_text(text, encoding="utf-8")
    write(folder, "policy.py", trojan("policy.py", markers, where))


def fired(markers: Path) -> list[str]:
    """The markers written: every route that ran code, by file."""
    return sorted(path.name for path in markers.iterdir())
