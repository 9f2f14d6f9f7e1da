"""Every observation and refusal leaves a trace: a verdict refused before any answer (an unknown
job, a wrong bound) appends a ``refusal`` event; ``show`` and ``list`` append an ``observation``
when ``audit_observations = true``, and nothing when it is off (the default)."""

from __future__ import annotations

from pathlib import Path

import pytest
from repo_files import copy_tracked

from pytest_jobledger import audit
from pytest_jobledger.cli import main

REPO = Path(__file__).resolve().parents[2]
JOB = "acme_shop.billing.tasks.capture_invoice"


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    copy_tracked(REPO / "examples" / "celery", root)
    return root


def trail(root: Path) -> list[dict[str, object]]:
    lines = audit.read_lines(root / ".jobledger" / "audit.ndjson", root=root)
    return [line.record for line in lines if line.record is not None]


def observe(root: Path) -> None:
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text("utf-8")
    pyproject.write_text(
        text.replace("[tool.jobledger]\n", "[tool.jobledger]\naudit_observations = true\n", 1)
    )


def test_a_verdict_on_an_unknown_job_is_recorded_as_a_refusal(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["verdict", "capture_invoice", "--root", str(shop), "--action", "retry"]
    assert main([*args, "--actor", "alice", "--ticket", "INC-9"]) == 2
    assert f"did you mean {JOB}?" in capsys.readouterr().err
    (record,) = trail(shop)
    assert record["event"] == "refusal"
    assert (record["job"], record["known_job"], record["actor"]) == (
        "capture_invoice",
        False,
        "alice",
    )
    assert record["ticket"] == "INC-9"
    assert "did you mean" in str(record["reason"])


def test_a_refused_bound_is_recorded_too(shop: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["verdict", JOB, "--root", str(shop), "--action", "retry", "--count", "5"]
    assert main(args) == 2
    (record,) = trail(shop)
    assert (record["event"], record["count"], record["action"]) == ("refusal", 5, "retry")
    assert "touches one job" in str(record["reason"])
    assert main(["audit", "--root", str(shop)]) == 0
    assert "REFUSED  retry x5" in capsys.readouterr().out


def test_show_and_list_leave_no_trace_by_default(shop: Path) -> None:
    assert main(["show", JOB, "--root", str(shop)]) == 0
    assert main(["list", "--root", str(shop)]) == 0
    assert not (shop / ".jobledger").exists()


def test_with_audit_observations_show_and_list_append_an_observation(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    observe(shop)
    assert main(["show", JOB, "--root", str(shop)]) == 0
    assert main(["list", "--root", str(shop), "--queue", "billing", "--json"]) == 0
    shown, listing = trail(shop)
    assert (shown["event"], shown["command"], shown["job"], shown["jobs_shown"]) == (
        "observation",
        "show",
        JOB,
        1,
    )
    assert listing["command"] == "list"
    assert listing["filters"] == {"unsigned": False, "queue": "billing", "owner": None}
    assert isinstance(listing["jobs_shown"], int)
    assert listing["jobs_shown"] > 0
    assert main(["audit", "--root", str(shop), "--verify"]) == 0


def test_audit_observations_takes_true_or_false(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pyproject = shop / "pyproject.toml"
    text = pyproject.read_text("utf-8")
    pyproject.write_text(
        text.replace("[tool.jobledger]\n", '[tool.jobledger]\naudit_observations = "yes"\n', 1)
    )
    assert main(["list", "--root", str(shop)]) == 2
    assert "audit_observations" in capsys.readouterr().err
