"""A stub that dies mid-write, or two stubs at once, never lose a byte a person wrote."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pytest_jobledger import cli
from pytest_jobledger.cli import stub as stub_command
from pytest_jobledger.core import atomic
from pytest_jobledger.ledger.model import Job, Ledger

SIGNED = 'jobs:\n  acme.billing.capture:  # signed\n    idempotent: "yes"\n'


def job(job_id: str) -> Job:
    return Job(
        id=job_id,
        function=job_id.rpartition(".")[2],
        module=job_id.rpartition(".")[0],
        path="src/acme/billing.py",
        line=3,
        framework="celery",
        decorator="celery.shared_task",
    )


@pytest.fixture
def overlay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.jobledger]\n")
    path = tmp_path / "overlays" / "job_policy.yaml"
    path.parent.mkdir()
    path.write_text(SIGNED)
    monkeypatch.chdir(tmp_path)
    ledger = Ledger.build([job("acme.billing.capture"), job("acme.billing.refund")])
    monkeypatch.setattr(stub_command, "extract_ledger", lambda config: ledger)
    return path


@pytest.mark.parametrize("step", ["write", "fsync", "replace"])
def test_a_failure_mid_write_leaves_the_old_file_whole(
    overlay: Path, monkeypatch: pytest.MonkeyPatch, step: str, capsys: pytest.CaptureFixture[str]
) -> None:
    def boom(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    if step == "write":
        monkeypatch.setattr(os, "fdopen", boom)
    else:
        monkeypatch.setattr(os, step, boom)
    if step == "replace":  # on Linux the rename is an exchange (atomic.atomic_write)
        monkeypatch.setattr(atomic, "exchange", boom)
    assert cli.main(["stub"]) == 2
    assert overlay.read_text() == SIGNED
    assert sorted(p.name for p in overlay.parent.iterdir()) == ["job_policy.yaml"]
    assert "the old file is unchanged" in capsys.readouterr().err


KILLED_MID_WRITE = """
import os, signal, sys
from pytest_jobledger import cli
from pytest_jobledger.cli import stub as stub_command
from pytest_jobledger.ledger.model import Job, Ledger

jobs = [Job(id=i, function=i.rpartition(".")[2], module="acme.billing", path="src/a.py", line=1,
            framework="celery", decorator="celery.shared_task") for i in sys.argv[1:]]
stub_command.extract_ledger = lambda config: Ledger.build(jobs)
if os.environ.get("KILL_AT_FSYNC"):
    def die(fd):
        os.kill(os.getpid(), signal.SIGKILL)  # the power goes out with the new text half-saved
    os.fsync = die
if os.environ.get("SLOW_STUB"):
    import time
    real = stub_command.stub_overlay
    def slow(*args, **kwargs):
        result = real(*args, **kwargs)
        time.sleep(float(os.environ["SLOW_STUB"]))
        return result
    stub_command.stub_overlay = slow
sys.exit(cli.main(["stub"]))
"""


def run_stub(root: Path, *ids: str, **env: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(KILLED_MID_WRITE), *ids],
        cwd=root,
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_stub_killed_mid_write_leaves_the_old_file_whole(overlay: Path) -> None:
    process = run_stub(
        overlay.parent.parent, "acme.billing.capture", "acme.billing.refund", KILL_AT_FSYNC="1"
    )
    process.communicate(timeout=60)
    assert process.returncode == -signal.SIGKILL
    assert overlay.read_text() == SIGNED  # a temporary file may remain; the overlay is whole


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_the_next_run_removes_what_a_killed_stub_left(overlay: Path) -> None:
    process = run_stub(
        overlay.parent.parent, "acme.billing.capture", "acme.billing.refund", KILL_AT_FSYNC="1"
    )
    process.communicate(timeout=60)
    [left] = [p for p in overlay.parent.iterdir() if p.name != "job_policy.yaml"]
    assert left.name.startswith(".job_policy.yaml.")
    assert left.name.endswith(".tmp")
    os.utime(left, (left.stat().st_atime, left.stat().st_mtime - 60))  # the next run, later
    assert cli.main(["stub"]) == 0
    assert sorted(p.name for p in overlay.parent.iterdir()) == ["job_policy.yaml"]
    assert "acme.billing.refund:" in overlay.read_text()


def test_two_stubs_at_once_keep_both_additions(overlay: Path) -> None:
    root = overlay.parent.parent
    first = run_stub(root, "acme.billing.capture", "acme.billing.refund", SLOW_STUB="1")
    second = run_stub(root, "acme.billing.capture", "acme.billing.void", SLOW_STUB="0")
    for process in (first, second):
        _, err = process.communicate(timeout=60)
        assert process.returncode == 0, err.decode()
    text = overlay.read_text()
    assert text.startswith(SIGNED)
    assert "acme.billing.refund:" in text
    assert "acme.billing.void:" in text


def test_a_symlinked_overlay_is_never_written_through(
    overlay: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One writer: a symlink at any level of a written path is refused, even one that
    stays inside the root; the link and the file it names are left as they were."""
    shared = overlay.parent.parent / "policy" / "shared.yaml"
    shared.parent.mkdir()
    overlay.rename(shared)
    before = shared.read_text()
    overlay.symlink_to(Path("..") / "policy" / "shared.yaml")
    assert cli.main(["stub"]) == 2
    assert overlay.is_symlink()
    assert shared.read_text() == before
    assert "is a symlink" in capsys.readouterr().err
