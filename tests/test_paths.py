"""The root boundary, through every entry point: nothing is read or written outside the project
root, and nothing that is not a regular file is read.

Each test plays a hostile pull request: it configures a path, or commits a symlink, that leads out
of the project, and checks that the command refuses (exit 2, naming the key, or a located problem)
and that the file outside is neither changed, created nor echoed.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_jobledger.cli import main
from pytest_jobledger.core.paths import FileTooLarge, UnsafeFile, is_inside, read_regular

TASKS = '''\
from celery import shared_task


@shared_task(queue="billing")
def capture_invoice(invoice_id):
    """Charge it."""
'''

SECRET = "AWS_SECRET_ACCESS_KEY=do-not-print-me\n"


@pytest.fixture
def world(tmp_path: Path) -> tuple[Path, Path]:
    """A project and, beside it, a folder that must stay untouched (a home directory)."""
    project, home = tmp_path / "project", tmp_path / "home"
    (project / "billing").mkdir(parents=True)
    (project / "billing" / "__init__.py").write_text("")
    (project / "billing" / "tasks.py").write_text(TASKS)
    (project / "pyproject.toml").write_text("[tool.jobledger]\n")
    home.mkdir()
    (home / ".profile").write_text(SECRET)
    return project, home


def configure(project: Path, line: str) -> None:
    (project / "pyproject.toml").write_text(f"[tool.jobledger]\n{line}\n")


def run_cli(project: Path, *args: str) -> int:
    return main([*args, "--root", str(project)])


# -- writes --------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["../home/.profile", "ABSOLUTE"])
def test_a_ledger_path_outside_the_root_is_a_configuration_error(
    world: tuple[Path, Path], capsys: pytest.CaptureFixture[str], value: str
) -> None:
    project, home = world
    target = str(home / ".profile") if value == "ABSOLUTE" else value
    configure(project, f"ledger = {json.dumps(target)}")
    assert run_cli(project, "extract") == 2
    assert (home / ".profile").read_text() == SECRET
    assert "[tool.jobledger] ledger:" in capsys.readouterr().err


def test_a_committed_ledger_symlink_leaving_the_root_is_not_followed(
    world: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    project, home = world
    (project / "generated").mkdir()
    (project / "generated" / "job_ledger.json").symlink_to(home / ".profile")
    assert run_cli(project, "extract") == 2
    assert (home / ".profile").read_text() == SECRET
    err = capsys.readouterr().err
    assert "[tool.jobledger] ledger:" in err
    assert "outside the project root" in err


def test_a_dangling_overlay_symlink_makes_no_folder_outside(
    world: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    project, home = world
    (project / "overlays").mkdir()
    (project / "overlays" / "job_policy.yaml").symlink_to(home / "made" / "by" / "stub.yaml")
    assert run_cli(project, "stub") == 2
    assert not (home / "made").exists()
    assert "[tool.jobledger] overlay:" in capsys.readouterr().err


def test_atomic_write_refuses_a_target_that_leaves_the_root(world: tuple[Path, Path]) -> None:
    from pytest_jobledger.core.atomic import atomic_write

    project, home = world
    link = project / "generated.json"
    link.symlink_to(home / ".profile")
    with pytest.raises(UnsafeFile, match="outside the project root"):
        atomic_write(link, "{}", root=project)
    assert (home / ".profile").read_text() == SECRET


def test_a_symlink_inside_the_root_is_not_written_through(
    world: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """One writer: a symlink at any level below the root is refused, even one that
    stays inside it (the next commit could point it anywhere)."""
    project, _ = world
    (project / "real").mkdir()
    (project / "generated").symlink_to(project / "real")
    assert run_cli(project, "extract") == 2
    assert not (project / "real" / "job_ledger.json").exists()
    assert "generated is a symlink" in capsys.readouterr().err


# -- reads ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["../home/.profile", "ABSOLUTE"])
@pytest.mark.parametrize("format", ["text", "github", "sarif", "json"])
def test_an_overlay_outside_the_root_is_never_read_or_echoed(
    world: tuple[Path, Path], capsys: pytest.CaptureFixture[str], value: str, format: str
) -> None:
    project, home = world
    target = str(home / ".profile") if value == "ABSOLUTE" else value
    configure(project, f"overlay = {json.dumps(target)}")
    assert run_cli(project, "check", "--format", format) == 2
    out, err = capsys.readouterr()
    assert "do-not-print-me" not in out + err
    assert "AWS_SECRET" not in out + err
    assert "[tool.jobledger] overlay:" in err


def test_an_overlay_symlink_leaving_the_root_is_never_read(
    world: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    project, home = world
    (project / "overlays").mkdir()
    (project / "overlays" / "job_policy.yaml").symlink_to(home / ".profile")
    assert run_cli(project, "check", "--format", "github") == 2
    out, err = capsys.readouterr()
    assert "do-not-print-me" not in out + err
    assert "AWS_SECRET" not in out + err


def test_a_source_symlink_leaving_the_root_is_reported_not_read(
    world: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    project, home = world
    (home / "leak.py").write_text(
        'from celery import shared_task\n\n@shared_task\ndef leak():\n    """' + SECRET + '"""\n'
    )
    (project / "billing" / "leak.py").symlink_to(home / "leak.py")
    assert run_cli(project, "extract", "-o", "-") == 1
    out, err = capsys.readouterr()
    assert "do-not-print-me" not in out + err
    ledger = json.loads(out)
    [problem] = ledger["unsupported"]
    assert problem["path"] == "billing/leak.py"
    assert problem["pattern"] == "unreadable"
    assert "outside the project root" in problem["message"]
    assert [job["id"] for job in ledger["jobs"]] == ["billing.tasks.capture_invoice"]


def test_a_paths_entry_that_leaves_the_root_is_a_configuration_error(
    world: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    project, home = world
    (project / "src").symlink_to(home)
    configure(project, 'paths = ["src"]')
    assert run_cli(project, "extract") == 2
    err = capsys.readouterr().err
    assert "[tool.jobledger] paths:" in err
    assert "Traceback" not in err


def test_a_found_pyproject_that_leaves_the_root_is_not_read(
    world: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    project, home = world
    (home / "evil.toml").write_text('[tool.jobledger]\nledger = "x.json"\n# ' + SECRET)
    (project / "pyproject.toml").unlink()
    (project / "pyproject.toml").symlink_to(home / "evil.toml")
    assert run_cli(project, "extract") == 2
    err = capsys.readouterr().err
    assert "outside the project root" in err
    assert "do-not-print-me" not in err


# -- files that are not regular files ------------------------------------------------------------

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")


def _run(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """In a child process with a deadline: a regression here would hang, not fail."""
    return subprocess.run(
        [sys.executable, "-m", "pytest_jobledger", *args, "--root", str(project)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@needs_fifo
def test_a_fifo_source_file_is_refused_before_reading(world: tuple[Path, Path]) -> None:
    project, _ = world
    os.mkfifo(project / "billing" / "pipe.py")
    done = _run(project, "extract", "-o", "-")
    assert done.returncode == 1, done.stderr
    [problem] = json.loads(done.stdout)["unsupported"]
    assert problem["path"] == "billing/pipe.py"
    assert "FIFO" in problem["message"]


@needs_fifo
@pytest.mark.parametrize("which", ["overlays/job_policy.yaml", "generated/job_ledger.json"])
def test_a_fifo_overlay_or_ledger_does_not_hang_check(world: tuple[Path, Path], which: str) -> None:
    project, _ = world
    (project / which).parent.mkdir()
    os.mkfifo(project / which)
    done = _run(project, "check", "-v")  # -v: the whole message, where the FIFO is named
    assert done.returncode == 1, done.stderr
    assert "FIFO" in done.stdout


def test_a_source_symlink_to_a_device_is_refused(world: tuple[Path, Path]) -> None:
    project, _ = world
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    (project / "billing" / "zero.py").symlink_to("/dev/zero")
    done = _run(project, "extract", "-o", "-")
    assert done.returncode == 1, done.stderr
    [problem] = json.loads(done.stdout)["unsupported"]
    assert problem["path"] == "billing/zero.py"


# -- the reader itself ---------------------------------------------------------------------------


def test_read_regular_refuses_a_folder_and_an_oversized_file(tmp_path: Path) -> None:
    with pytest.raises(UnsafeFile, match="a folder"):
        read_regular(tmp_path)
    big = tmp_path / "big"
    big.write_bytes(b"x" * 11)
    with pytest.raises(FileTooLarge) as caught:
        read_regular(big, limit=10)
    assert caught.value.size == 11
    assert read_regular(big, limit=11) == b"x" * 11


def test_is_inside_follows_symlinks(tmp_path: Path) -> None:
    (tmp_path / "root").mkdir()
    (tmp_path / "root" / "up").symlink_to(tmp_path)
    assert is_inside(tmp_path / "root" / "a" / "b", tmp_path / "root")
    assert not is_inside(tmp_path / "root" / "up" / "x", tmp_path / "root")
    assert not is_inside(tmp_path / "rootless", tmp_path / "root")


@needs_fifo
def test_a_target_that_is_not_a_regular_file_is_never_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Renaming over a device or FIFO replaces it: as root, `-o /dev/null` once replaced the
    device with a file. A FIFO stands in for the device here, so a regression breaks nothing."""
    project = tmp_path / "project"
    (project / "billing").mkdir(parents=True)
    (project / "billing" / "tasks.py").write_text(TASKS)
    (project / "pyproject.toml").write_text("[tool.jobledger]\n")
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    assert main(["extract", "--root", str(project), "-o", str(pipe)]) == 2
    assert stat.S_ISFIFO(pipe.lstat().st_mode)
    assert "not a regular file" in capsys.readouterr().err
    assert not list(tmp_path.glob(".pipe.*.tmp"))
