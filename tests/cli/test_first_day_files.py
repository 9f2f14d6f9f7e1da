"""What the first day leaves in a clone: the schema a new overlay points at is there, the local
trail does not show as untracked, and the SARIF log is the same bytes from any clone."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from repo_files import REPO, copy_tracked

from pytest_jobledger.cli import main

CELERY = REPO / "examples" / "celery"
SCHEMA = "overlays/job_policy.schema.json"


def test_a_new_overlay_comes_with_the_schema_it_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = copy_tracked(CELERY, tmp_path / "shop")
    (root / "overlays" / "job_policy.yaml").unlink()
    (root / SCHEMA).unlink(missing_ok=True)
    assert main(["stub", "--root", str(root)]) == 0
    assert "wrote the schema the overlay's $schema line names" in capsys.readouterr().out
    first = (root / "overlays" / "job_policy.yaml").read_text("utf-8").splitlines()[0]
    assert first.endswith("$schema=job_policy.schema.json")
    assert main(["schema", "--root", str(root), "--check"]) == 0


def test_the_stub_leaves_an_existing_schema_alone(tmp_path: Path) -> None:
    root = copy_tracked(CELERY, tmp_path / "shop")
    (root / "overlays" / "job_policy.yaml").unlink()
    (root / SCHEMA).write_text("{}\n")
    assert main(["stub", "--root", str(root)]) == 0
    assert (root / SCHEMA).read_text() == "{}\n"


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def test_the_local_trail_ignores_itself(tmp_path: Path) -> None:
    root = copy_tracked(CELERY, tmp_path / "shop")
    _git(root, "init", "-q")
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "base")
    job = "acme_shop.billing.tasks.ReconcileSettlements"
    verdict = ["verdict", job, "--action", "retry", "--actor", "alice", "--root", str(root)]
    assert main(verdict) in (0, 3)  # approved or needs-review: either is recorded
    assert (root / ".jobledger" / "audit.ndjson").is_file()
    assert (root / ".jobledger" / ".gitignore").read_text().splitlines()[-1] == "*"
    assert _git(root, "status", "--porcelain", "--untracked-files=all") == ""


def test_sarif_is_the_same_bytes_from_any_clone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = []
    for name in ("one", "a-clone-elsewhere"):
        root = copy_tracked(CELERY, tmp_path / name / "shop")
        (root / "overlays" / "job_policy.yaml").unlink()
        capsys.readouterr()
        assert main(["check", "--root", str(root), "--format", "sarif"]) == 1
        logs.append(capsys.readouterr().out)
    assert logs[0] == logs[1]
    assert str(tmp_path) not in logs[0]
