"""One text channel: no line of human output can begin a CI workflow command.

GitHub's runner reads a line that starts with ``::`` (after blanks) as a workflow command, and
``##[``/``##vso[`` anywhere in a line. ``jobledger check`` starts each line with a path, so a
root file named ``::notice title=jobledger::All cells signed.py`` (or an overlay path that starts
with ``::``) printed a notice of the pull request's choosing in a ``run: jobledger check`` step.
Every print in ``cli/`` and ``reporters/`` now goes through ``text.say``, which prints such a
path as ``./::notice...``; an AST test fails on any other print.
"""

from __future__ import annotations

import ast
import json
import subprocess
from pathlib import Path

import pytest

from pytest_jobledger.cli import main
from pytest_jobledger.core import text as channel

PACKAGE = Path(__file__).resolve().parents[1] / "pytest_jobledger"
CHANNEL_MODULES = sorted([*(PACKAGE / "cli").rglob("*.py"), *(PACKAGE / "reporters").rglob("*.py")])


def prints_in(source: str) -> list[str]:
    """Every call in ``source`` that writes text somewhere but through ``text.say``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "print":
            found.append(f"{node.lineno}: print()")
        elif isinstance(func, ast.Attribute) and func.attr in {"write", "writelines"}:
            found.append(f"{node.lineno}: .{func.attr}()")
    return found


@pytest.mark.parametrize("path", CHANNEL_MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_cli_and_reporters_print_only_through_the_channel(path: Path) -> None:
    found = prints_in(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(PACKAGE)} prints around text.say: {found}"


@pytest.mark.parametrize(
    "line", ["print(x)", "sys.stdout.write(x)", "sys.stderr.write(x)", "stream.writelines(x)"]
)
def test_the_checker_sees_each_way_to_print(line: str) -> None:
    assert prints_in(line)


# -- the rule itself -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "printed"),
    [
        ("::notice title=x::y.py:3: z", "./::notice title=x::y.py:3: z"),
        ("   ::error::x", "   ./::error::x"),
        ("\t::warning::x", "\t./::warning::x"),
        ("path ##[error]x", "path #\\u0023[error]x"),
        ("##vso[task.setvariable variable=x]1", "#\\u0023vso[task.setvariable variable=x]1"),
        ("a::b", "a::b"),
        ("plain line", "plain line"),
        ("# heading ## [x]", "# heading ## [x]"),
    ],
)
def test_a_line_that_would_be_a_command_is_printed_inert(line: str, printed: str) -> None:
    assert channel.inert_line(line) == printed


def test_every_line_break_counts() -> None:
    assert channel.inert("a\n::x\r::y\r\n::z") == "a\n./::x\r./::y\r\n./::z"


def test_json_stays_the_same_document() -> None:
    document = {"path": "::notice::x.py", "doc": "a ##[error]b ##VSO[c \\##[d"}
    text = json.dumps(document, indent=2)
    assert json.loads(channel.inert(text)) == document
    assert "##[" not in channel.inert(text)


def test_say_writes_through_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    channel.say("::notice::forged")
    channel.say("x", end="")
    assert capsys.readouterr().out == "./::notice::forged\nx"


# -- every command, against a hostile tree --------------------------------------------------------

HOSTILE_FILE = "::notice title=jobledger::All cells signed.py"
HOSTILE_OVERLAY = "::warning title=jobledger::overlay ok/job_policy.yaml"
TASKS = '''\
from celery import shared_task


@shared_task(queue="billing")
def capture_invoice(invoice_id):
    """Charge it. ##[error]forged"""
'''


def _git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=root,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / HOSTILE_FILE).write_text(TASKS)
    (root / "pyproject.toml").write_text(
        f"[tool.jobledger]\noverlay = {json.dumps(HOSTILE_OVERLAY)}\n"
    )
    _git(root, "init", "-q", "-b", "main")
    assert main(["extract", "--root", str(root)]) == 0
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "base")
    return root


def command_lines(text: str) -> list[str]:
    """Lines a runner would take for a workflow command."""
    return [
        line
        for line in text.replace("\r", "\n").splitlines()
        if line.lstrip().startswith("::") or "##[" in line or "##vso[" in line.lower()
    ]


def _job(root: Path) -> str:
    ledger = json.loads((root / "generated" / "job_ledger.json").read_text())
    return str(ledger["jobs"][0]["id"])


COMMANDS: dict[str, list[str]] = {
    "check": ["check"],
    "check -v": ["check", "-v"],
    "check -q": ["check", "-q"],
    "check --format json": ["check", "--format", "json"],
    "check --format sarif": ["check", "--format", "sarif"],
    "list": ["list"],
    "list --json": ["list", "--json"],
    "show": ["show", "JOB"],
    "diff": ["diff", "--base", "HEAD"],
    "stub --check": ["stub", "--check"],
    "stub": ["stub"],
    "verdict": ["verdict", "JOB", "--action", "retry"],
    "render": ["render"],
    "render --preview": ["render", "--preview", "-o", "-"],
    "extract": ["extract"],
    "extract -o -": ["extract", "-o", "-"],
    "baseline": ["baseline"],
}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_no_command_prints_a_line_a_runner_would_obey(
    hostile: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    args = [_job(hostile) if arg == "JOB" else arg for arg in COMMANDS[name]]
    capsys.readouterr()
    code = main([*args, "--root", str(hostile)])
    out, err = capsys.readouterr()
    assert code in (0, 1, 2), (code, err)
    assert "Traceback" not in err
    assert command_lines(out) == []
    assert command_lines(err) == []


def test_check_names_the_hostile_file_as_a_path(
    hostile: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(hostile)  # paths are shown from the current folder
    capsys.readouterr()
    main(["check", "--root", str(hostile)])
    out = capsys.readouterr().out
    assert out.startswith("./::notice title=jobledger::All cells signed.py:4: ")


def test_the_github_format_writes_only_the_commands_it_means(
    hostile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    main(["check", "--format", "github", "--root", str(hostile)])
    out = capsys.readouterr().out
    names = [line.split(" ", 1)[0].split("::", 2)[1] for line in out.splitlines() if line]
    assert names
    assert set(names) <= {"error", "warning", "notice"}
