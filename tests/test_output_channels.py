"""No output can be forged: hostile keys, paths and values reach every channel as inert text.

A GitHub workflow command is a line that starts with ``::``. Whatever a pull request puts in a
configuration key, a file name, a job id or an overlay key, no line the tool prints may start a
command it did not mean to write; text channels escape control characters (one function,
``text.one_line``), GitHub commands escape their own syntax, JSON and SARIF are JSON.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_jobledger.cli import main

FORGED = "x\n::error title=forged::pwned"
TASKS = '''\
from celery import shared_task


@shared_task(queue="billing", name=NAME)
def capture_invoice(invoice_id):
    """Charge it."""
'''


def forged_lines(text: str) -> list[str]:
    """Lines that a runner would read as a workflow command we did not write."""
    return [line for line in text.splitlines() if line.startswith("::error title=forged")]


def project(tmp_path: Path, config: str = "", name: str = "billing.capture") -> Path:
    (tmp_path / "billing").mkdir()
    (tmp_path / "billing" / "__init__.py").write_text("")
    (tmp_path / "billing" / "tasks.py").write_text(TASKS.replace("NAME", json.dumps(name)))
    (tmp_path / "pyproject.toml").write_text(f"[tool.jobledger]\n{config}\n")
    return tmp_path


HOSTILE_CONFIGS = {
    "decorator key": f"[tool.jobledger.decorators.{json.dumps('a' + FORGED)}]\nqueue = 0",
    "unknown key": f"{json.dumps(FORGED)} = 1",
    "unknown decorator field": (
        f'[tool.jobledger.decorators."acme.jobs.job"]\n{json.dumps(FORGED)} = "q"'
    ),
}


@pytest.mark.parametrize("command", ["extract", "check", "stub"])
@pytest.mark.parametrize("config", list(HOSTILE_CONFIGS), ids=list(HOSTILE_CONFIGS))
def test_configuration_errors_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, config: str
) -> None:
    root = project(tmp_path, HOSTILE_CONFIGS[config])
    assert main([command, "--root", str(root)]) == 2
    out, err = capsys.readouterr()
    assert "[tool.jobledger]" in err
    assert forged_lines(out + err) == []
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize("config", list(HOSTILE_CONFIGS), ids=list(HOSTILE_CONFIGS))
def test_the_pytest_usage_error_is_one_line(tmp_path: Path, config: str) -> None:
    """Printed before any ::stop-commands:: guard could be in place, so it must be inert itself."""
    root = project(tmp_path, HOSTILE_CONFIGS[config])
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--jobledger", "-p", "no:cacheprovider", str(root)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 4, done.stdout + done.stderr
    assert "[tool.jobledger]" in done.stderr
    assert forged_lines(done.stdout + done.stderr) == []


def test_extract_problems_name_a_hostile_file_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path)
    (root / "billing" / f"bad{FORGED}.py").write_text("@job\ndef broken(:\n    pass\n")
    assert main(["extract", "--root", str(root)]) == 1
    err = capsys.readouterr().err
    assert "syntax" in err or "cannot parse" in err
    assert forged_lines(err) == []


@pytest.mark.parametrize("format", ["text", "github", "json", "sarif"])
def test_check_keeps_a_hostile_job_id_inert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], format: str
) -> None:
    root = project(tmp_path, 'job_id = "registered-name"', name=FORGED)
    assert main(["check", "--root", str(root), "--format", format]) == 1
    out = capsys.readouterr().out
    assert "pwned" in out
    assert forged_lines(out) == []
    if format in ("json", "sarif"):
        json.loads(out)


def test_stub_reports_a_hostile_job_id_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path, 'job_id = "registered-name"', name=FORGED)
    assert main(["stub", "--root", str(root)]) == 0
    out = capsys.readouterr().out
    assert "pwned" in out
    assert forged_lines(out) == []
    assert main(["check", "--root", str(root)]) == 1  # the stub signed nothing
