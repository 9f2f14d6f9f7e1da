"""A trail anchored outside the work tree: every append also records the trail's head in the
user's state folder, and ``audit --verify`` compares. Cutting the last verdicts and putting the
head file back passes the chain's own check; it does not pass this one."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_jobledger import audit
from pytest_jobledger.audit.chain import encode_head, line_sha256
from pytest_jobledger.cli import main

LOG = ".jobledger/audit.ndjson"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text("[tool.jobledger]\n")
    monkeypatch.setenv(audit.anchor.ENV, str(tmp_path / "state"))
    monkeypatch.delenv(audit.ENV_URL, raising=False)
    store = audit.open_store(LOG, root=root)
    audit.identify(store, by="test")
    for job in ("a", "b", "c", "d"):
        audit.append_event(store, _verdict(job))
    return root


def _verdict(job: str) -> dict[str, object]:
    return {
        "format": 1,
        "event": "verdict",
        "actor": "alice",
        "actor_from": "--actor",
        "job": job,
        "version": "0.1.0",
        "action": "retry",
        "count": None,
        "approved_by": None,
        "ticket": None,
        "verdict": "approved",
        "blockers": [],
        "review": [],
        "ledger": "generated/job_ledger.json",
        "ledger_origin": "committed",
        "ledger_sha256": "0" * 64,
        "overlay": "overlays/job_policy.yaml",
        "overlay_sha256": "0" * 64,
        "approval_plan_sha256": None,
        "approval_principal": None,
    }


def _cut_to(root: Path, keep: int) -> None:
    """Roll the file trail back to its first ``keep`` lines, head file and all: the chain and
    the head agree again, as a careful attacker leaves them."""
    log = root / LOG
    lines = log.read_bytes().splitlines(keepends=True)[:keep]
    log.write_bytes(b"".join(lines))
    sha = line_sha256(lines[-1]) if lines else audit.GENESIS
    audit.head_path(log).write_text(encode_head(len(lines), sha))


def _verify(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["audit", "--verify", "--root", str(root)])
    return code, capsys.readouterr().out


def test_an_intact_trail_matches_the_machines_record(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _verify(project, capsys)
    assert code == 0, out
    assert "5 lines, chain intact" in out


@pytest.mark.parametrize(
    ("keep", "says"),
    [
        (4, "lines 5 missing"),
        (3, "lines 4-5 missing"),
        (1, "lines 2-5 missing"),
        (0, "lines 1-5 missing"),
    ],
)
def test_a_rollback_is_reported_with_the_missing_range(
    project: Path, capsys: pytest.CaptureFixture[str], keep: int, says: str
) -> None:
    _cut_to(project, keep)
    store = audit.open_store(LOG, root=project)
    assert store.verify().ok, "the chain alone cannot see a careful rollback"
    code, out = _verify(project, capsys)
    assert code == 1
    assert "rolled back: this machine appended up to line 5" in out
    assert says.replace("lines 5", "line 5") in out
    assert f"and the trail ends at line {keep}" in out


def test_a_trail_cut_and_appended_to_again_is_named_at_the_rewritten_line(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _cut_to(project, 3)
    store = audit.open_store(LOG, root=project)
    store.append(_verdict("x"))  # not through append_event: the anchor is not moved
    store.append(_verdict("y"))
    assert store.verify().ok
    code, out = _verify(project, capsys)
    assert code == 1
    assert "line 5 is not the line this machine appended there" in out


def test_a_replaced_trail_is_named(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _cut_to(project, 0)
    store = audit.open_store(LOG, root=project)
    for job in "vwxyz":
        store.append(_verdict(job))
    code, out = _verify(project, capsys)
    assert code == 1
    assert "the trail was replaced" in out


def test_a_state_folder_inside_the_root_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.jobledger]\n")
    monkeypatch.setenv(audit.anchor.ENV, str(tmp_path / "state"))
    monkeypatch.delenv(audit.ENV_URL, raising=False)
    audit.append_event(audit.open_store(LOG, root=tmp_path), _verdict("a"))
    assert not (tmp_path / "state").exists()
    code, _ = _verify(tmp_path, capsys)
    assert code == 0


def test_the_state_folder_follows_xdg() -> None:
    env = {"XDG_STATE_HOME": "/srv/state"}
    assert audit.state_folder(env) == Path("/srv/state/pytest-jobledger").resolve()
    assert audit.state_folder({audit.anchor.ENV: "/x/y"}) == Path("/x/y").resolve()
