"""The action's inputs become a pytest command line without a shell; the CLI presenters work."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from pytest_jobledger.cli import main
from pytest_jobledger.github.action import BASE_ARGS, pytest_arguments

REPO = Path(__file__).parents[2]
EXAMPLE = REPO / "examples" / "celery"


def test_pytest_args_are_split_with_quotes_and_never_expanded(tmp_path: Path) -> None:
    shutil.copytree(EXAMPLE, tmp_path / "p")
    args = pytest_arguments(
        {"JOBLEDGER_PYTEST_ARGS": '-n 2 -k "a and b" $(id) `id`', "JOBLEDGER_SARIF_FILE": "x"},
        tmp_path / "p",
    )
    assert args == [
        *BASE_ARGS,
        "--jobledger-sarif",
        "x",
        "-n",
        "2",
        "-k",
        "a and b",
        "$(id)",
        "`id`",
        "overlays/job_policy.yaml",
    ]


def test_without_an_overlay_pytest_gets_an_empty_folder_not_the_tests(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.jobledger]\n")
    args = pytest_arguments({}, tmp_path)
    assert args[-2] == f"--rootdir={tmp_path}"
    assert Path(args[-1]).is_dir()
    assert not any(Path(args[-1]).iterdir())


def test_unbalanced_quotes_are_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="quotation"):
        pytest_arguments({"JOBLEDGER_PYTEST_ARGS": '-k "open'}, tmp_path)


def test_check_prints_workflow_commands_and_sarif(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "p"
    shutil.copytree(EXAMPLE, root)
    overlay = root / "overlays" / "job_policy.yaml"
    overlay.write_text(overlay.read_text() + '\n  acme.gone:\n    idempotent: "no"\n')
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))
    monkeypatch.delenv("GITHUB_EVENT_PATH", raising=False)
    assert main(["check", "--root", str(root), "--format", "github"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("::error file=p/overlays/job_policy.yaml,line=")
    assert out.count("\n") == 1
    assert main(["check", "--root", str(root), "--format", "sarif"]) == 1
    log = json.loads(capsys.readouterr().out)
    assert log["runs"][0]["results"][0]["ruleId"] == "jobledger/orphan"


def test_pre_commit_hooks_run_existing_commands_over_the_whole_repository() -> None:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert {hook["id"]: hook["entry"] for hook in hooks} == {
        "jobledger-extract": "jobledger extract",
        "jobledger-check": "jobledger check",
        "jobledger-render": "jobledger render --check",
    }
    assert all(hook["pass_filenames"] is False for hook in hooks)
    for hook in hooks:
        with pytest.raises(SystemExit) as exit_info:
            main([*hook["entry"].split()[1:], "--help"])
        assert exit_info.value.code == 0
