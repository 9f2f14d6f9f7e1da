"""The draft program never runs in the project: a fresh, empty scratch folder per job, and ``-I``
for a Python interpreter, so a checkout's ``json/`` package cannot shadow the standard library."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from repo_files import copy_tracked

from pytest_jobledger.cli import main
from pytest_jobledger.draft.runner import isolated

from .test_command import PARTLY, RECEIPT, drafts

SHADOW = """
import pathlib
pathlib.Path({marker!r}).write_text("the checkout's json package was imported")
raise SystemExit("the checkout's json package was imported")
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The half-signed case without its drafts, carrying a hostile ``json/`` package."""
    root = tmp_path / "acme"
    copy_tracked(PARTLY, root)
    (root / "overlays" / "purpose_drafts.yaml").unlink()
    (root / "json").mkdir()
    marker = root / "MARKER"
    (root / "json" / "__init__.py").write_text(SHADOW.format(marker=str(marker)), "utf-8")
    return root


@pytest.mark.parametrize("program", ["python3", sys.executable], ids=["python3", "full-path"])
def test_a_checkout_json_package_cannot_shadow_the_stdlib(
    project: Path, program: str, capsys: pytest.CaptureFixture[str]
) -> None:
    command = shlex.join([program, "-m", "json.tool"])
    assert main(["draft", "--root", str(project), "--command", command]) == 0
    assert not (project / "MARKER").exists()
    err = capsys.readouterr().err
    assert "no draft" not in err
    # The standard json.tool read the request and printed it back: that is the draft.
    assert json.loads(drafts(project)[RECEIPT])["id"] == RECEIPT


def test_the_program_runs_in_a_fresh_empty_folder(project: Path, tmp_path: Path) -> None:
    script = tmp_path / "where.py"
    script.write_text(
        "import json, os, sys\nsys.stdin.read()\n"
        "print(json.dumps({'cwd': os.getcwd(), 'files': os.listdir('.')}))\n",
        "utf-8",
    )
    command = shlex.join([sys.executable, str(script)])
    assert main(["draft", "--root", str(project), "--command", command]) == 0
    seen = [json.loads(text) for text in drafts(project).values()]
    assert len(seen) == 2
    for where in seen:
        assert where["files"] == []
        assert Path(where["cwd"]).resolve() != project.resolve()
        assert not Path(where["cwd"]).exists()  # removed once the job is drafted
    assert seen[0]["cwd"] != seen[1]["cwd"]  # one fresh folder per job


@pytest.mark.parametrize(
    ("argv", "started"),
    [
        (["python3", "-m", "json.tool"], ["python3", "-I", "-m", "json.tool"]),
        (["python", "x.py"], ["python", "-I", "x.py"]),
        (["/usr/bin/python3.12", "-m", "m"], ["/usr/bin/python3.12", "-I", "-m", "m"]),
        (["python3", "-I", "-m", "m"], ["python3", "-I", "-m", "m"]),
        (["python3-config", "--help"], ["python3-config", "--help"]),
        (["my-model-cli", "python3"], ["my-model-cli", "python3"]),
        (["/opt/bin/model", "-x"], ["/opt/bin/model", "-x"]),
    ],
)
def test_only_a_python_interpreter_gets_isolated_mode(argv: list[str], started: list[str]) -> None:
    assert isolated(argv, Path("/project")) == started


def test_a_relative_program_is_found_from_the_project_root() -> None:
    assert isolated(["bin/model", "--x"], Path("/project")) == ["/project/bin/model", "--x"]
    assert isolated(["./venv/bin/python3"], Path("/p")) == ["/p/venv/bin/python3", "-I"]
