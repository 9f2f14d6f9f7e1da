"""``jobledger audit``: the trail as lines or JSON, filtered, and ``--verify`` exiting 1 with the
first broken line as ``path:line: reason``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from repo_files import copy_tracked

from pytest_jobledger.cli import main

REPO = Path(__file__).resolve().parents[2]
CAPTURE = "acme_shop.billing.tasks.capture_invoice"
PING = "acme_shop.celery_app.ping"


@pytest.fixture
def trail(tmp_path: Path) -> Path:
    """The Celery example after three verdicts."""
    root = tmp_path / "shop"
    copy_tracked(REPO / "examples" / "celery", root)
    base = ["--root", str(root), "--actor", "alice"]
    assert main(["verdict", CAPTURE, *base, "--action", "bulk-retry", "--count", "4000"]) == 1
    assert main(["verdict", PING, *base, "--action", "retry", "--ticket", "INC-9"]) == 3
    # blocked: signed idempotent "no" with no dedupe_guard, a plain retry included
    assert main(["verdict", CAPTURE, *base, "--action", "retry"]) == 1
    return root


def test_the_trail_is_one_line_per_verdict(trail: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["audit", "--root", str(trail)]) == 0
    out = capsys.readouterr().out.splitlines()
    # One line per verdict in aligned columns, its notes (reasons, ticket) indented under it.
    lines = [line for line in out if not line.startswith("      ")]
    assert len(lines) == 3
    assert lines[0].startswith("   1  ")
    first = lines[0].split()
    assert first[2:7] == ["BLOCKED", "bulk-retry", "x4000", CAPTURE, "by"]
    assert out[1].strip().startswith("(not-idempotent:idempotent, bulk-over-limit:count, ")
    assert len({line.index(" by ") for line in lines}) == 1  # the columns line up
    assert max(len(line) for line in out) <= 120
    assert any("ticket INC-9" in line for line in out)


def test_job_tail_and_json(trail: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["audit", "--root", str(trail), "--job", CAPTURE, "--tail", "1", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["log"] == ".jobledger/audit.ndjson"
    (entry,) = document["entries"]
    assert entry["line"] == 3
    assert entry["record"]["action"] == "retry"
    assert len(entry["sha256"]) == 64


def test_verify_a_whole_trail(
    trail: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(trail)  # paths are shown from the current folder
    capsys.readouterr()
    assert main(["audit", "--root", str(trail), "--verify"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(".jobledger/audit.ndjson: 3 lines, chain intact; head sha256 ")


def test_verify_names_an_edited_line_and_exits_1(
    trail: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(trail)  # paths are shown from the current folder
    path = trail / ".jobledger" / "audit.ndjson"
    lines = path.read_text().splitlines(keepends=True)
    lines[0] = lines[0].replace('"verdict": "blocked"', '"verdict": "approved"')
    path.write_text("".join(lines))
    capsys.readouterr()
    assert main(["audit", "--root", str(trail), "--verify"]) == 1
    assert capsys.readouterr().out.startswith(".jobledger/audit.ndjson:1: line 1 was edited")
    assert main(["audit", "--root", str(trail), "--verify", "--json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert (document["ok"], document["broken"], document["lines"]) == (False, 1, 3)


def test_verify_names_a_removed_last_line(
    trail: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(trail)  # paths are shown from the current folder
    path = trail / ".jobledger" / "audit.ndjson"
    path.write_text("".join(path.read_text().splitlines(keepends=True)[:2]))
    capsys.readouterr()
    assert main(["audit", "--root", str(trail), "--verify"]) == 1
    assert capsys.readouterr().out.startswith(".jobledger/audit.ndjson:3: line 3 is missing")


def test_an_empty_trail(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # paths are shown from the current folder
    assert main(["audit", "--root", str(tmp_path)]) == 0
    assert capsys.readouterr().out == ".jobledger/audit.ndjson: no verdicts recorded\n"
    assert main(["audit", "--root", str(tmp_path), "--verify"]) == 0
    assert "0 lines, chain intact" in capsys.readouterr().out
    assert not (tmp_path / ".jobledger").exists()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--verify", "--tail", "2"], "--verify checks the whole log"),
        (["--tail", "0"], "--tail 0: give 1 or more"),
    ],
)
def test_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], says: str
) -> None:
    assert main(["audit", "--root", str(tmp_path), *args]) == 2
    assert says in capsys.readouterr().err
