"""The action's inputs become a pytest command line without a shell; the CLI presenters work."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import example
from repo_files import copy_tracked

from pytest_jobledger.cli import build_parser, main
from pytest_jobledger.github.action import (
    BASE_ARGS,
    INI_TEXT,
    PLUGINS,
    child_process,
    prepare,
    pytest_arguments,
    xdist_plugins,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

REPO = Path(__file__).parents[2]
EXAMPLE = REPO / "examples" / "celery"


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    return example(EXAMPLE.name, tmp_path / "p")


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    (tmp_path / "scratch").mkdir()
    prepare(tmp_path / "scratch")
    return tmp_path / "scratch"


def test_pytest_args_are_split_with_quotes_and_never_expanded(shop: Path, scratch: Path) -> None:
    args = pytest_arguments(
        {"JOBLEDGER_PYTEST_ARGS": '-n 2 -k "a and b" $(id) `id`'}, shop, scratch
    )
    assert args[-6:] == ["-n", "2", "-k", "a and b", "$(id)", "`id`"]


def test_the_child_runs_isolated_from_the_project(
    shop: Path, scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    child = child_process(
        {
            "PATH": "/bin",
            "PYTHONPATH": str(shop),
            "PYTHONSTARTUP": str(shop / "x.py"),
            "PYTHONUSERBASE": str(shop),
            "PYTEST_ADDOPTS": "-p evil",
            "PYTEST_PLUGINS": "evil",
        },
        shop,
        scratch,
    )
    assert child.argv[:4] == [sys.executable, "-I", "-m", "pytest"]
    assert child.cwd == scratch
    assert child.cwd.resolve() != shop.resolve()
    assert not any(scratch.joinpath("collect").iterdir())
    assert child.env == {
        "PATH": "/bin",
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        "PYTHONSAFEPATH": "1",
        "PYTHONNOUSERSITE": "1",
    }


def test_pytest_reads_the_actions_own_ini_file_only(shop: Path, scratch: Path) -> None:
    args = child_process({}, shop, scratch).pytest_args
    ini = Path(args[args.index("-c") + 1])
    assert ini.parent == scratch
    assert ini.read_text(encoding="utf-8") == INI_TEXT
    assert f"--rootdir={shop.resolve()}" in args
    assert "--noconftest" in args
    assert all(arg in args for arg in BASE_ARGS)


def test_pytest_collects_no_path_of_the_project(shop: Path, scratch: Path) -> None:
    """Not the overlay (whatever it is called): only the action's own empty folder."""
    (shop / "pyproject.toml").write_text('[tool.jobledger]\noverlay = "policy.py"\n')
    (shop / "policy.py").write_text("raise SystemExit('imported')\n")
    child = child_process({"JOBLEDGER_PYTEST_ARGS": "-k x"}, shop, scratch)
    assert child.argv[-1] == str(scratch / "collect")
    inside = [arg for arg in child.argv if str(shop.resolve()) in arg]
    assert inside == [f"--rootdir={shop.resolve()}", f"--jobledger-root={shop.resolve()}"]
    assert not any("policy" in arg for arg in child.argv)


def test_the_root_is_the_nearest_pyproject_as_for_jobledger_check(
    shop: Path, scratch: Path
) -> None:
    args = pytest_arguments({}, shop / "src", scratch)
    assert f"--rootdir={shop.resolve()}" in args
    assert f"--jobledger-root={shop.resolve()}" in args


def test_a_relative_sarif_path_is_the_working_directorys(shop: Path, scratch: Path) -> None:
    args = pytest_arguments({"JOBLEDGER_SARIF_FILE": "out/x.sarif"}, shop / "src", scratch)
    sarif = args[args.index("--jobledger-sarif") + 1]
    assert sarif == str(shop.resolve() / "src" / "out" / "x.sarif")


def test_plugins_are_named_not_autoloaded(shop: Path, scratch: Path) -> None:
    child = child_process({}, shop, scratch)
    assert child.env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] == "1"
    args = child.pytest_args
    named = [args[i + 1] for i, arg in enumerate(args) if arg == "-p"]
    assert named == ["no:cacheprovider", *PLUGINS, *xdist_plugins()]
    assert xdist_plugins()[0] == "xdist.plugin"  # before looponfail, which imports it


def test_the_named_plugins_are_the_packages_entry_points() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert tuple(pyproject["project"]["entry-points"]["pytest11"].values()) == PLUGINS


def test_unbalanced_quotes_are_a_usage_error(shop: Path, scratch: Path) -> None:
    with pytest.raises(ValueError, match="quotation"):
        pytest_arguments({"JOBLEDGER_PYTEST_ARGS": '-k "open'}, shop, scratch)


def action_steps() -> dict[str, dict[str, object]]:
    action = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
    return {step["id"]: step for step in action["runs"]["steps"]}


def test_every_interpreter_the_action_starts_is_isolated() -> None:
    """``-I`` on each Python the steps start; the install step runs from a fresh folder (where
    the interpreter's bundled pip is unpacked, and run by its path)."""
    starts = []
    for step in action_steps().values():
        script = str(step["run"])
        starts += re.findall(r'"\$(?:JOBLEDGER_PYTHON|py|JOBLEDGER_VENV_PYTHON)" (\S+ \S+)', script)
    key = '-I "$JOBLEDGER_ACTION_PATH/pytest_jobledger/github/install_key.py"'
    # install_key.py, venv --without-pip, zipfile -e (the bundled pip), venv (with its own pip
    # when the interpreter bundles none), pip, and the gate.
    assert starts == [key, "-I -m", "-I -m", "-I -m", '-I "${pip[@]}"', "-I -m"]
    install = str(action_steps()["install"]["run"]).splitlines()
    cd = next(i for i, line in enumerate(install) if line.startswith('cd "$(mktemp -d'))
    assert cd < next(i for i, line in enumerate(install) if "install_key.py" in line)
    assert cd < next(i for i, line in enumerate(install) if "-m venv" in line)
    assert cd < next(i for i, line in enumerate(install) if "-m zipfile" in line)
    assert 'pip=("$PWD/pip-run/pip")' in [line.strip() for line in install]


def test_inputs_reach_the_shell_only_through_the_environment() -> None:
    for step in action_steps().values():
        assert "${{" not in str(step["run"])


def test_check_prints_workflow_commands_and_sarif(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "p"
    copy_tracked(EXAMPLE, root)
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
        "jobledger-stub": "jobledger stub --check",
    }
    assert all(hook["pass_filenames"] is False for hook in hooks)
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    parser = build_parser()
    for hook in hooks:
        program, *arguments = shlex.split(hook["entry"])
        assert program in scripts, f"{hook['id']}: {program} is not a console script"
        parsed = parser.parse_args(arguments)  # an unknown subcommand or flag exits 2 here
        assert parsed.command == arguments[0]
        with pytest.raises(SystemExit) as exit_info:
            main([*arguments, "--help"])
        assert exit_info.value.code == 0


def _git_repo(path: Path) -> str:
    """Commit ``path`` as it is; the commit's sha."""
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.hooksPath=/dev/null"]
    subprocess.run([*git, "init", "-q"], cwd=path, check=True)
    subprocess.run([*git, "add", "-A"], cwd=path, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "base"], cwd=path, check=True)
    done = subprocess.run([*git, "rev-parse", "HEAD"], cwd=path, check=True, capture_output=True)
    return done.stdout.decode().strip()


def test_a_pull_request_gives_the_gate_its_base(shop: Path, scratch: Path, tmp_path: Path) -> None:
    sha = _git_repo(shop)
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"base": {"sha": sha}}}))
    env = {"GITHUB_EVENT_PATH": str(event), "GITHUB_BASE_REF": "main"}
    assert f"--jobledger-base={sha}" in pytest_arguments(env, shop, scratch)
    # The workflow's own pytest-args win.
    mine = {**env, "JOBLEDGER_PYTEST_ARGS": "--jobledger-base=origin/release"}
    args = pytest_arguments(mine, shop, scratch)
    assert [arg for arg in args if arg.startswith("--jobledger-base")] == [
        "--jobledger-base=origin/release"
    ]


def test_a_base_this_clone_lacks_is_still_named_so_the_gate_says_why(
    shop: Path, scratch: Path, tmp_path: Path
) -> None:
    _git_repo(shop)
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"base": {"sha": "0" * 40}}}))
    args = pytest_arguments({"GITHUB_EVENT_PATH": str(event)}, shop, scratch)
    assert f"--jobledger-base={'0' * 40}" in args


def test_outside_a_pull_request_there_is_no_base(shop: Path, scratch: Path, tmp_path: Path) -> None:
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"commits": []}))
    args = pytest_arguments({"GITHUB_EVENT_PATH": str(event)}, shop, scratch)
    assert not any(arg.startswith("--jobledger-base") for arg in args)
