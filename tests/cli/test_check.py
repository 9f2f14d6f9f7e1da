"""``jobledger check``: the same findings as the pytest items, exit 0/1/2, text and JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from repo_files import copy_tracked

from pytest_jobledger.cli import main
from pytest_jobledger.project import load_config
from pytest_jobledger.session import evaluate

REPO = Path(__file__).resolve().parents[2]
CASES = REPO / "tests" / "cases" / "gate"
HOMEGROWN = REPO / "examples" / "homegrown"


def _extracted(case: str, tmp_path: Path) -> Path:
    """A copy of a gate case with its ledger extracted, as a project commits it."""
    root = tmp_path / case
    copy_tracked(CASES / case, root)
    assert main(["extract", "--root", str(root)]) == 0
    return root


def test_seed_example_is_clean(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--root", str(HOMEGROWN)]) == 0
    assert capsys.readouterr().out == "jobledger: 2 jobs, 10 cells signed\n"


def test_findings_exit_1_and_print_located_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _extracted("unknown_key", tmp_path)
    monkeypatch.chdir(root)
    capsys.readouterr()
    assert main(["check", "--root", str(root)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "billing.tasks.capture_invoice"
    assert lines[1].startswith("  overlays/job_policy.yaml:2: paging_owner [unsigned] ")
    assert lines[2].startswith("  overlays/job_policy.yaml:5: paging_onwer [unknown-key] ")
    assert lines[3] == (
        "jobledger: 2 failing findings (1 unsigned, 1 unknown-key) in 1 of 2 jobs; "
        "9 of 10 cells signed"
    )


def test_a_project_that_never_committed_its_ledger_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "p"
    copy_tracked(CASES / "signed_clean", root)
    assert main(["check", "--root", str(root), "-q"]) == 1
    assert capsys.readouterr().out == (
        "jobledger: 1 failing finding (1 ledger-stale); 2 jobs, 10 of 10 cells signed\n"
    )
    assert main(["extract", "--root", str(root)]) == 0
    assert main(["check", "--root", str(root)]) == 0
    assert capsys.readouterr().out.endswith("jobledger: 2 jobs, 10 cells signed\n")


def test_json_is_the_stable_finding_list(capsys: pytest.CaptureFixture[str]) -> None:
    root = CASES / "orphan"
    assert main(["check", "--root", str(root), "--format", "json"]) == 1
    first = capsys.readouterr().out
    assert main(["check", "--root", str(root), "--format", "json"]) == 1
    assert capsys.readouterr().out == first
    rows = json.loads(first)
    assert rows == [f.to_json() for f in evaluate(load_config(root=root)).findings]
    keys = ["cell", "id", "kind", "level", "line", "message", "path"]
    assert all(list(row) == keys for row in rows)
    assert rows[-1]["kind"] == "orphan"


def test_unknown_format_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["check", "--root", str(HOMEGROWN), "--format", "yaml"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'yaml'" in capsys.readouterr().err


def test_bad_configuration_exits_2_with_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.jobledger]\nrequired_cell = []\n")
    assert main(["check", "--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "required_cell" in err
    assert "did you mean 'required_cells'" in err


def test_bad_overlay_is_one_finding_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _extracted("signed_clean", tmp_path)
    (root / "overlays" / "job_policy.yaml").write_text("jobs:\n  - a\n")
    capsys.readouterr()
    assert main(["check", "--root", str(root), "--format", "json"]) == 1
    [row] = json.loads(capsys.readouterr().out)
    assert (row["kind"], row["path"], row["line"]) == (
        "overlay-invalid",
        "overlays/job_policy.yaml",
        1,
    )


def test_hostile_key_stays_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], pytester: pytest.Pytester
) -> None:
    root = tmp_path / "project"
    copy_tracked(HOMEGROWN, root)
    (root / "overlays" / "job_policy.yaml").write_text(
        'jobs:\n  "evil\\n::error file=x::forged":\n    idempotent: "no"\n', encoding="utf-8"
    )
    assert main(["check", "--root", str(root)]) == 1
    out = capsys.readouterr().out
    assert not any(line.startswith("::") for line in out.splitlines())
    assert "evil\\n::error file=x::forged::orphan [orphan]" in out
    result = pytester.runpytest_inprocess(
        "--jobledger", "-p", "no:cacheprovider", f"--jobledger-root={root}", "--co", "-q"
    )
    ids = [line for line in result.outlines if "forged" in line]
    assert len(ids) == 1
    assert ids[0].endswith("job_policy.yaml::evil\\n::error file=x::forged::orphan")
