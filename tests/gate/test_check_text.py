"""``jobledger check`` as text, compared byte for byte with golden files in the gate cases.

A gate case folder may hold ``check.txt`` (the default report), ``check-v.txt`` (``-v``) and
``check-q.txt`` (``-q``): what ``jobledger check --color never`` prints for a copy of the case
(its fresh ledger committed, as the gate cases run). To accept a change after review:
``JOBLEDGER_UPDATE_GOLDEN=1 pytest tests/gate/test_check_text.py``.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from repo_files import copy_tracked

from pytest_jobledger.cli import main
from pytest_jobledger.reporters.terminal import use_color

from ._repo import commit_fresh_ledger

CASES = Path(__file__).resolve().parent.parent / "cases" / "gate"
FLAGS = {"check.txt": (), "check-v.txt": ("-v",), "check-q.txt": ("-q",)}
GOLDEN = sorted(
    (case, name)
    for case in CASES.iterdir()
    if not (case / "head").is_dir()
    for name in FLAGS
    if (case / name).is_file()
)


def _check(case: Path, work: Path, *flags: str, capsys: pytest.CaptureFixture[str]) -> str:
    root = work / case.name
    copy_tracked(case, root)
    expected = json.loads((case / "expected.json").read_text("utf-8"))
    commit_fresh_ledger(root, expected)
    # Run from the root, as a person does: paths are shown from the current folder.
    here = Path.cwd()
    os.chdir(root)
    try:
        main(["check", "--root", str(root), "--color", "never", *flags])
    finally:
        os.chdir(here)
    return capsys.readouterr().out.replace(str(root), "<root>")


@pytest.mark.parametrize(
    ("case", "name"), GOLDEN, ids=[f"{case.name}/{name}" for case, name in GOLDEN]
)
def test_text_report_is_golden(
    case: Path, name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _check(case, tmp_path, *FLAGS[name], capsys=capsys)
    golden = case / name
    if os.environ.get("JOBLEDGER_UPDATE_GOLDEN"):
        golden.write_bytes(text.encode("utf-8"))
    assert golden.read_bytes().decode("utf-8") == text


def test_a_new_job_is_one_line_and_the_next_command_is_the_stub(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _check(CASES / "unsigned_no_entry", tmp_path, capsys=capsys).splitlines()
    assert lines == [
        "billing/tasks.py:11: billing.tasks.send_receipt: no entry: 5 cells unsigned",
        "jobledger: 5 failing findings (5 unsigned) in 1 of 2 jobs; 5 of 10 cells signed",
        "next: `jobledger stub` adds an entry to overlays/job_policy.yaml for the 1 job with no "
        "entry, every cell `unknown`; then each job's owner answers its cells",
    ]


def test_success_counts_jobs_and_cells(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _check(CASES / "signed_clean", tmp_path, capsys=capsys) == (
        "jobledger: 2 jobs, 10 cells signed\n"
    )


def test_colour_only_when_asked_or_on_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    coloured = _check(CASES / "unsigned_no_entry", tmp_path, "--color", "always", capsys=capsys)
    assert "\033[31mno entry: 5 cells unsigned\033[0m" in coloured
    assert "\033[1mbilling/tasks.py:11:\033[0m" in coloured
    plain = _check(CASES / "unsigned_no_entry", tmp_path / "plain", capsys=capsys)
    assert "\033" not in plain  # captured output is not a terminal


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("choice", "tty", "environ", "colour"),
    [
        ("auto", True, {}, True),
        ("auto", False, {}, False),  # a pipe or a file
        ("auto", True, {"NO_COLOR": "1"}, False),
        ("auto", True, {"NO_COLOR": ""}, True),  # no-color.org: only a non-empty value counts
        ("auto", True, {"CI": "true"}, False),  # a CI log, even behind a pseudo-terminal
        ("auto", True, {"TERM": "dumb"}, False),
        ("auto", False, {"FORCE_COLOR": "1"}, True),
        ("auto", False, {"FORCE_COLOR": "0"}, False),
        ("auto", False, {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
        ("always", False, {"NO_COLOR": "1", "CI": "true"}, True),
        ("never", True, {"FORCE_COLOR": "1"}, False),
    ],
)
def test_when_the_report_is_coloured(
    choice: str, tty: bool, environ: dict[str, str], colour: bool
) -> None:
    stream = _Terminal() if tty else io.StringIO()
    assert use_color(choice, stream, environ) is colour


def test_quiet_and_verbose_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["check", "-q", "-v", "--root", str(CASES / "signed_clean")])
    assert exit_info.value.code == 2
    assert "-q/--quiet and -v/--verbose cannot be used together" in capsys.readouterr().err


def test_a_stubbed_entry_with_nothing_answered_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _check(CASES / "check_grouping", tmp_path, capsys=capsys).splitlines()
    assert "overlays/job_policy.yaml:3: billing.tasks.close_account: all 5 cells unsigned" in lines
    assert not any("close_account::" in line for line in lines)
    verbose = _check(CASES / "check_grouping", tmp_path / "v", "-v", capsys=capsys).splitlines()
    at = verbose.index(
        "overlays/job_policy.yaml:3: billing.tasks.close_account: all 5 cells unsigned"
    )
    assert verbose[at + 1].startswith("  overlays/job_policy.yaml:3: idempotent [unsigned] ")
