"""The package's public face is what ``__all__`` says, pinned here: a name added or dropped is a
decision, not an accident. Everything else may move."""

from __future__ import annotations

import subprocess
import sys

import pytest_jobledger
from pytest_jobledger.cli import main
from pytest_jobledger.findings import Check, Finding, GateResult, Kind
from pytest_jobledger.project import Config, load_config
from pytest_jobledger.session import Session

API = [
    "Check",
    "Config",
    "Finding",
    "GateResult",
    "Kind",
    "Session",
    "__version__",
    "load_config",
    "main",
    "plugin",
]


def test_the_public_names_are_pinned() -> None:
    assert pytest_jobledger.__all__ == API


def test_each_public_name_is_the_real_thing() -> None:
    from pytest_jobledger import plugin

    assert (
        pytest_jobledger.main,
        pytest_jobledger.Config,
        pytest_jobledger.load_config,
        pytest_jobledger.Session,
        pytest_jobledger.Finding,
        pytest_jobledger.Kind,
        pytest_jobledger.Check,
        pytest_jobledger.GateResult,
        pytest_jobledger.plugin,
    ) == (main, Config, load_config, Session, Finding, Kind, Check, GateResult, plugin)


def test_importing_the_package_loads_nothing_else() -> None:
    code = (
        "import sys, pytest_jobledger; "
        "print(sorted(m for m in sys.modules if m.startswith('pytest_jobledger')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['pytest_jobledger']"
