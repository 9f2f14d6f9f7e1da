"""``jobledger stub`` end to end: exit codes, ``--check``, refusing a broken file, renames, and
the file's mode; the extraction is replaced by a hand-made ledger so only the stub is tested."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from pytest_jobledger import cli
from pytest_jobledger.cli import stub as stub_command
from pytest_jobledger.ledger.model import Job, Ledger

SIGNED = 'jobs:\n  acme.billing.capture:  # signed by billing\n    idempotent: "yes"\n'


def job(job_id: str, **fields: object) -> Job:
    module, _, function = job_id.rpartition(".")
    return Job(
        id=job_id,
        function=function,
        module=module,
        path=f"src/{module.replace('.', '/')}.py",
        line=7,
        framework="celery",
        decorator="celery.shared_task",
        **fields,  # type: ignore[arg-type]
    )


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    # One required cell keeps SIGNED complete; the filling of more is tested on its own.
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jobledger]\npaths = ["src"]\nrequired_cells = ["idempotent"]\n'
    )
    (tmp_path / "overlays").mkdir()
    (tmp_path / "src").mkdir()
    monkeypatch.chdir(tmp_path)
    use_ledger(monkeypatch, job("acme.billing.capture"), job("acme.billing.refund"))
    return tmp_path


def use_ledger(monkeypatch: pytest.MonkeyPatch, *jobs: Job) -> None:
    ledger = Ledger.build(list(jobs))
    monkeypatch.setattr(stub_command, "extract_ledger", lambda config: ledger)


def overlay(project: Path) -> Path:
    return project / "overlays" / "job_policy.yaml"


def test_adds_the_unsigned_job_and_reports_it(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    overlay(project).write_text(SIGNED)
    assert cli.main(["stub"]) == 0
    text = overlay(project).read_text()
    assert text.startswith(SIGNED)
    assert "  acme.billing.refund:  # src/acme/billing.py:7\n    idempotent: unknown\n" in text
    out = capsys.readouterr().out
    assert "overlays/job_policy.yaml: added acme.billing.refund" in out
    assert cli.main(["stub"]) == 0
    assert overlay(project).read_text() == text
    assert "up to date" in capsys.readouterr().out


def test_check_changes_nothing_and_exits_1_when_the_stub_would(project: Path) -> None:
    overlay(project).write_text(SIGNED)
    assert cli.main(["stub", "--check"]) == 1
    assert overlay(project).read_text() == SIGNED
    assert cli.main(["stub"]) == 0
    assert cli.main(["stub", "--check"]) == 0


def test_check_on_a_missing_file_exits_1_and_creates_nothing(project: Path) -> None:
    assert cli.main(["stub", "--check"]) == 1
    assert not overlay(project).exists()


def test_creates_a_missing_overlay_with_a_schema_line(project: Path) -> None:
    assert cli.main(["stub"]) == 0
    text = overlay(project).read_text()
    # The schema `jobledger schema` writes beside it (overlays/job_policy.schema.json).
    assert text.splitlines()[0] == "# yaml-language-server: $schema=job_policy.schema.json"
    assert "\njobs:\n  acme.billing.capture:" in text


def test_a_broken_overlay_is_left_alone_with_a_located_error(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = b'jobs:\n  acme.billing.capture:\n    idempotent: "yes\n'
    overlay(project).write_bytes(broken)
    assert cli.main(["stub"]) == 2
    assert overlay(project).read_bytes() == broken
    err = capsys.readouterr().err
    # The scanner stops past the last line; the message names the last line there is (3).
    assert "overlays/job_policy.yaml:3: not valid YAML" in err
    assert "Traceback" not in err


def test_an_undecodable_overlay_is_left_alone(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = b"jobs:\n  caf\xe9: {}\n"
    overlay(project).write_bytes(data)
    assert cli.main(["stub"]) == 2
    assert overlay(project).read_bytes() == data
    assert "overlays/job_policy.yaml:2: the overlay cannot be used: it is not UTF-8" in (
        capsys.readouterr().err
    )


def test_the_file_mode_is_kept(project: Path) -> None:
    overlay(project).write_text(SIGNED)
    overlay(project).chmod(0o640)
    assert cli.main(["stub"]) == 0
    assert stat.S_IMODE(overlay(project).stat().st_mode) == 0o640


def test_renames_hint_then_move(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    old = job("acme.billing.capture", name="billing.capture")
    new = job("acme.payments.capture", name="billing.capture")
    ledger_file = project / "generated" / "job_ledger.json"
    ledger_file.parent.mkdir()
    ledger_file.write_text(Ledger.build([old]).dumps())
    use_ledger(monkeypatch, new)
    overlay(project).write_text(SIGNED)

    assert cli.main(["stub", "--check"]) == 1
    out = capsys.readouterr().out
    assert "hint: acme.billing.capture looks renamed to acme.payments.capture" in out

    assert cli.main(["stub", "--renames"]) == 0
    assert overlay(project).read_text() == SIGNED.replace("billing.capture:", "payments.capture:")
    assert "moved acme.billing.capture -> acme.payments.capture" in capsys.readouterr().out


def test_an_unreadable_committed_ledger_only_disables_renames(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger_file = project / "generated" / "job_ledger.json"
    ledger_file.parent.mkdir()
    ledger_file.write_text("{not json")
    overlay(project).write_text(SIGNED)
    assert cli.main(["stub"]) == 0
    assert "renames cannot be detected" in capsys.readouterr().err


def test_an_edit_saved_while_the_stub_runs_is_not_overwritten(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    overlay(project).write_text(SIGNED)
    real = stub_command.stub_overlay
    edited = SIGNED + "  # a person typed this meanwhile\n"

    def slow(*args: object, **kwargs: object) -> object:
        result = real(*args, **kwargs)  # type: ignore[arg-type]
        overlay(project).write_text(edited)  # an editor that takes no lock
        return result

    monkeypatch.setattr(stub_command, "stub_overlay", slow)
    assert cli.main(["stub"]) == 2
    assert overlay(project).read_text() == edited


def test_check_prints_each_addition_then_a_summary(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    overlay(project).write_text(SIGNED)
    cli.main(["stub", "--check"])
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "overlays/job_policy.yaml: would add acme.billing.refund  # src/acme/billing.py:7",
        "overlays/job_policy.yaml: would change (1 to add); run `jobledger stub` to write it",
    ]


# -- the editor-save race, read-only files, stale temporaries, limits -------------


def test_a_save_between_the_last_read_and_the_rename_is_not_overwritten(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The timing that lost the save before: the editor writes while the stub's new text is being
    synced to its temporary file, after every re-read the stub made."""
    from pytest_jobledger.core import atomic

    overlay(project).write_text(SIGNED)
    edited = SIGNED + "  # a person typed this meanwhile\n"
    real_fsync = atomic.os.fsync

    def editor_saves_now(fd: int) -> None:
        if overlay(project).read_text() != edited:
            overlay(project).write_text(edited)  # an editor that takes no lock
        real_fsync(fd)

    monkeypatch.setattr(atomic.os, "fsync", editor_saves_now)
    assert cli.main(["stub"]) == 2
    assert overlay(project).read_text() == edited
    assert "changed while the stub was running" in capsys.readouterr().err
    assert [p.name for p in overlay(project).parent.iterdir()] == ["job_policy.yaml"]


def test_a_read_only_overlay_is_respected(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    overlay(project).write_text(SIGNED)
    overlay(project).chmod(0o444)
    assert cli.main(["stub"]) == 2
    err = capsys.readouterr().err
    assert "overlays/job_policy.yaml: cannot write the overlay (it is read-only (mode 0444)" in err
    assert "chmod u+w job_policy.yaml" in err
    assert overlay(project).read_text() == SIGNED


def test_an_overlays_folder_that_is_a_file_is_a_located_error(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "overlays").rmdir()
    (project / "overlays").write_text("not a folder\n")
    assert cli.main(["stub"]) == 2
    err = capsys.readouterr().err
    assert "overlays/job_policy.yaml: cannot lock the overlay's folder" in err
    assert "overlays is a file, not a folder" in err
    assert "Traceback" not in err


def test_stale_temporaries_of_a_killed_writer_are_removed(project: Path) -> None:
    import fcntl
    import os

    folder = overlay(project).parent
    stale = folder / ".job_policy.yaml.k1ll3d_x.tmp"  # its writer is gone
    young = folder / ".job_policy.yaml.writing1.tmp"  # a second old: maybe not locked yet
    held = folder / ".job_policy.yaml.lockedby.tmp"  # old, but a live writer holds its lock
    mine = folder / ".job_policy.yaml.notes.tmp"  # not the tool's pattern: never touched
    for path in (stale, young, held, mine):
        path.write_text("half a file")
    for path in (stale, held, mine):
        os.utime(path, (1_000_000_000, 1_000_000_000))
    with held.open("rb") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        assert cli.main(["stub"]) == 0
    assert not stale.exists()
    assert young.exists()
    assert held.exists()
    assert mine.exists()


def test_the_stub_never_writes_more_than_the_gate_reads(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "max_overlay_bytes = 2000\n")
    use_ledger(monkeypatch, *(job(f"acme.generated.job{n}") for n in range(40)))
    assert cli.main(["stub"]) == 2
    err = capsys.readouterr().err
    assert "over the 2,000-byte limit the gate reads" in err
    assert "Raise `max_overlay_bytes` in [tool.jobledger] (at most 4,194,304)" in err
    assert not overlay(project).exists()


def test_a_job_id_with_a_lone_surrogate_is_refused_at_its_registration(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    use_ledger(monkeypatch, job("acme.billing.capture\udfff"))
    assert cli.main(["stub"]) == 2
    err = capsys.readouterr().err
    assert "acme.billing.capture\\udfff (registered at src/acme/billing.py:7)" in err
    assert "lone surrogate" in err
    assert not overlay(project).exists()
