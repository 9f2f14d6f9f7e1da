"""git starts in one place: ``pytest_jobledger/git.py``, pinned to the repository (see its
docstring). Any other module that could start a process (``subprocess``, ``os.system``,
``os.exec*``, ``os.spawn*``, ``os.popen``, ``os.posix_spawn*``, ``pty``, ``asyncio``'s
subprocesses) fails here, unless it is one of the two that start a program that is not git, named
below with why; and no module but ``git.py`` spells the program name ``git``.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pytest_jobledger"

#: Modules that start a process, and which one. Adding one is a decision: say what it starts.
STARTS_A_PROCESS = {
    "git.py": "git, pinned (the only git runner)",
    "github/action.py": "the child `python -I -m pytest` of the Action",
    "draft/runner.py": "the operator's draft_command, for `jobledger draft` only",
    "verdict/sshkeygen.py": "ssh-keygen -Y find-principals/verify, for `verdict --approval` only",
}
_MODULES = {"subprocess", "pty", "pexpect", "sh", "plumbum", "_posixsubprocess"}
_OS_NAMES = {"system", "popen", "fork", "forkpty"}
_OS_PREFIXES = ("exec", "spawn", "posix_spawn")
_ASYNCIO = {"create_subprocess_exec", "create_subprocess_shell"}


def process_starts(source: str) -> list[tuple[int, str]]:
    """Every place in ``source`` that can start a process: (line, what)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in _MODULES:
                    found.append((node.lineno, f"import {alias.name}"))
                if alias.name == "os" and alias.asname:
                    found.append((node.lineno, f"import os as {alias.asname}"))
        elif isinstance(node, ast.ImportFrom):
            module = (node.module or "").split(".")[0]
            names = {alias.name for alias in node.names}
            if module in _MODULES:
                found.append((node.lineno, f"from {node.module} import ..."))
            elif module == "os" and any(_os_name(name) for name in names):
                found.append((node.lineno, f"from os import {', '.join(sorted(names))}"))
            elif module == "asyncio" and names & _ASYNCIO:
                found.append((node.lineno, "asyncio subprocess"))
        elif isinstance(node, ast.Attribute):
            base = node.value
            if isinstance(base, ast.Name) and base.id == "os" and _os_name(node.attr):
                found.append((node.lineno, f"os.{node.attr}"))
            elif node.attr in _ASYNCIO or node.attr == "Popen":
                found.append((node.lineno, node.attr))
        elif isinstance(node, ast.Name) and node.id == "Popen":
            found.append((node.lineno, "Popen"))
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            first = node.args[0] if node.args else None
            if (
                called in {"__import__", "import_module"}
                and isinstance(first, ast.Constant)
                and str(first.value).split(".")[0] in _MODULES
            ):
                found.append((node.lineno, f"{called}({first.value!r})"))
    return found


def _os_name(name: str) -> bool:
    return name in _OS_NAMES or name.startswith(_OS_PREFIXES)


def _modules() -> dict[str, str]:
    return {
        path.relative_to(PACKAGE).as_posix(): path.read_text("utf-8")
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def test_only_the_named_modules_can_start_a_process() -> None:
    offenders = {
        name: starts
        for name, source in _modules().items()
        if name not in STARTS_A_PROCESS and (starts := process_starts(source))
    }
    assert offenders == {}, "start git through pytest_jobledger/git.py only"


def test_the_named_modules_still_start_one() -> None:
    """A module that stopped starting a process leaves the list (it must not stay allowed)."""
    modules = _modules()
    assert all(process_starts(modules[name]) for name in STARTS_A_PROCESS)


def test_no_module_but_git_py_names_the_git_program() -> None:
    for name, source in _modules().items():
        if name == "git.py":
            continue
        strings = {
            node.value
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
        }
        assert not strings & {"git", "git.exe"}, name


def test_no_module_but_the_runner_names_the_ssh_keygen_program() -> None:
    """ssh-keygen starts in verdict/sshkeygen.py only: no other module spells it as a
    program name (messages that tell a person what to run are whole sentences, not the name)."""
    for name, source in _modules().items():
        if name == "verdict/sshkeygen.py":
            continue
        strings = {
            node.value
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
        }
        assert not strings & {"ssh-keygen", "ssh-keygen.exe"}, name


def test_the_check_finds_every_way_to_start_a_process() -> None:
    """The detector itself: each of these lines must be caught."""
    lines = [
        "import subprocess",
        "import subprocess as sp",
        "from subprocess import run",
        "from subprocess import Popen as P",
        "import os\nos.system('git status')",
        "import os\nos.execvp('git', ['git'])",
        "import os\nos.spawnlp(0, 'git', 'git')",
        "import os\nos.posix_spawnp('git', ['git'], {})",
        "import os\nos.popen('git log')",
        "from os import execv",
        "import os as o",
        "import pty\npty.spawn(['git'])",
        "import asyncio\nasyncio.create_subprocess_exec('git')",
        "from asyncio import create_subprocess_shell",
        "x = __import__('subprocess')",
        "import importlib\nimportlib.import_module('subprocess')",
    ]
    for line in lines:
        assert process_starts(line), line
    assert process_starts("import os\nos.path.join('a', 'b')\nos.environ.get('X')") == []
