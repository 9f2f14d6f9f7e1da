"""Issue 27, item 9: an editor's save that lands inside the stub's rename is kept.

The saves are made deterministically at the one moment that lost them before (after the stub's
last read, before its new text takes the file's place), through the ``before_swap`` hook that
exists for these tests only; real files, the real ``renameat2`` call, no timing.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from pytest_jobledger import cli
from pytest_jobledger.cli import stub as stub_command
from pytest_jobledger.core import atomic
from pytest_jobledger.core.errors import OverlayError
from pytest_jobledger.ledger.model import Job, Ledger
from pytest_jobledger.stub import swap

SIGNED = 'jobs:\n  acme.billing.capture:  # signed by billing\n    idempotent: "yes"\n'
EDITED = SIGNED + "  # a person typed this meanwhile\n"
NEWER = EDITED + "  # and saved once more\n"
linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 is Linux's")


def job(job_id: str) -> Job:
    module, _, function = job_id.rpartition(".")
    return Job(job_id, function, module, f"src/{module}.py", 7, "celery", "celery.shared_task")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jobledger]\npaths = ["src"]\nrequired_cells = ["idempotent"]\n'
    )
    (tmp_path / "overlays").mkdir()
    (tmp_path / "src").mkdir()
    monkeypatch.chdir(tmp_path)
    ledger = Ledger.build([job("acme.billing.capture"), job("acme.billing.refund")])
    monkeypatch.setattr(stub_command, "extract_ledger", lambda config: ledger)
    (tmp_path / "overlays" / "job_policy.yaml").write_text(SIGNED)
    return tmp_path


def overlay(project: Path) -> Path:
    return project / "overlays" / "job_policy.yaml"


def save(path: Path, text: str) -> None:
    """Save as editors do: write a new file, then rename it over the old one (no lock)."""
    fresh = path.with_name(path.name + ".editor~")
    fresh.write_text(text)
    os.replace(fresh, path)


@linux
def test_exchange_swaps_two_files_and_returns_what_was_displaced(tmp_path: Path) -> None:
    first, second = tmp_path / "new", tmp_path / "old"
    first.write_text("new text")
    second.write_text("old text")
    assert atomic.exchange(first, second) is True
    assert (first.read_text(), second.read_text()) == ("old text", "new text")


@linux
def test_exchange_with_a_missing_file_is_an_oserror(tmp_path: Path) -> None:
    (tmp_path / "new").write_text("x")
    with pytest.raises(FileNotFoundError):
        atomic.exchange(tmp_path / "new", tmp_path / "missing")


def test_a_save_inside_the_rename_is_kept_and_the_stub_exits_2(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The reproduction of item 9: on today's main the save landed after the re-read and was
    replaced while the stub reported success (there, ``os.replace`` is where it lands)."""
    saved: list[str] = []

    def editor() -> None:
        if not saved:
            saved.append("once")
            save(overlay(project), EDITED)

    real_replace = os.replace

    def replace_after_a_save(source: object, target: object) -> None:
        if Path(str(target)) == overlay(project):
            editor()
        real_replace(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(stub_command, "_BEFORE_SWAP", editor, raising=False)
    monkeypatch.setattr(atomic.os, "replace", replace_after_a_save)
    assert cli.main(["stub"]) == 2
    assert overlay(project).read_text() == EDITED
    assert "changed while the stub was running" in capsys.readouterr().err
    assert sorted(p.name for p in overlay(project).parent.iterdir()) == ["job_policy.yaml"]


@linux
def test_a_second_save_right_after_the_swap_is_the_one_kept(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save inside the window, then another right after the swap: putting the first back must
    not undo the second (the newest save is what stays)."""
    real = atomic.exchange
    calls: list[int] = []

    def exchange_then_save(first: Path, second: Path, *, dir_fd: int | None = None) -> bool:
        if not calls:  # a save after the re-read, inside the rename
            save(overlay(project), EDITED)
        done = real(first, second, dir_fd=dir_fd)
        calls.append(1)
        if len(calls) == 1:
            save(overlay(project), NEWER)
        return done

    monkeypatch.setattr(atomic, "exchange", exchange_then_save)
    assert cli.main(["stub"]) == 2
    assert overlay(project).read_text() == NEWER
    assert sorted(p.name for p in overlay(project).parent.iterdir()) == ["job_policy.yaml"]


@linux
def test_without_a_save_the_swap_writes_and_leaves_no_temporary_file(project: Path) -> None:
    assert cli.main(["stub"]) == 0
    assert overlay(project).read_text().startswith(SIGNED)
    assert "acme.billing.refund" in overlay(project).read_text()
    assert sorted(p.name for p in overlay(project).parent.iterdir()) == ["job_policy.yaml"]


def test_where_files_cannot_be_exchanged_the_reread_before_the_rename_still_runs(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fallback (no ``renameat2``): a save before the re-read is caught; the README says a
    save between that re-read and the rename is not."""
    monkeypatch.setattr(atomic, "exchange", lambda first, second, dir_fd=None: False)
    monkeypatch.setattr(stub_command, "_BEFORE_SWAP", lambda: save(overlay(project), EDITED))
    assert cli.main(["stub"]) == 2
    assert overlay(project).read_text() == EDITED


@linux
def test_the_writer_says_whether_the_exchange_guaranteed_it(tmp_path: Path) -> None:
    target = tmp_path / "job_policy.yaml"
    target.write_bytes(b"old")

    def reread() -> bytes | None:
        return target.read_bytes()

    kept = swap.write_unless_changed(
        target, b"new", b"old", root=tmp_path, label="o.yaml", reread=reread
    )
    assert kept is True
    assert target.read_bytes() == b"new"
    with pytest.raises(OverlayError, match="changed while the stub was running"):
        swap.write_unless_changed(
            target, b"newer", b"old", root=tmp_path, label="o.yaml", reread=reread
        )
    assert target.read_bytes() == b"new"
