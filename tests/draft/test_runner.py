"""The runner: a fresh process, no shell, one JSON object in; bounded, plain text out."""

from __future__ import annotations

import json
import os
import shlex
import time
from pathlib import Path

import pytest

from pytest_jobledger.draft.request import DraftRequest
from pytest_jobledger.draft.runner import DraftFailed, run_command

from ._fakes import fake

REQUEST = DraftRequest(
    "acme.billing.tasks.capture_invoice",
    "capture_invoice",
    "acme.billing.tasks",
    "billing",
    "Charge a captured authorization.",
)


def run(tmp_path: Path, name: str, *args: str, timeout: float = 20.0) -> str:
    return run_command(
        shlex.split(fake(tmp_path, name, *args)), REQUEST.payload(), cwd=tmp_path, timeout=timeout
    )


def test_the_request_is_exactly_one_json_object(tmp_path: Path) -> None:
    assert json.loads(REQUEST.payload()) == {
        "id": "acme.billing.tasks.capture_invoice",
        "function": "capture_invoice",
        "module": "acme.billing.tasks",
        "queue": "billing",
        "docstring": "Charge a captured authorization.",
    }
    text = run(tmp_path, "echo")
    assert text == (
        "Drafted from capture_invoice (['docstring', 'function', 'id', 'module', 'queue']): "
        "Charge a captured authorization."
    )


def test_a_command_is_never_run_by_a_shell(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    argv = [*shlex.split(fake(tmp_path, "echo")), f"; touch {marker}"]
    assert run_command(argv, REQUEST.payload(), cwd=tmp_path).startswith("Drafted from")
    assert not marker.exists()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(os.name != "posix", reason="process groups are POSIX")
def test_a_hanging_command_is_killed_with_its_process_group(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild.pid"
    with pytest.raises(DraftFailed, match=r"did not finish within 1 s and was killed"):
        run(tmp_path, "hang", str(pid_file), timeout=1.0)
    if pid_file.exists() and pid_file.read_text():
        grandchild = int(pid_file.read_text())
        for _ in range(200):  # SIGKILL is delivered when the process is next scheduled
            if not _alive(grandchild):
                break
            time.sleep(0.05)
        assert not _alive(grandchild)


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("fail", "it exited with status 3: model quota exceeded"),
        ("invalid_utf8", "its output is not UTF-8 (byte 17)"),
        ("control", "its output holds the control character '\\x1b' (at character 17)"),
        ("bidi", "its output holds the control character '\\u202e'"),
        ("megabytes", "it printed more than 8,192 bytes"),
        ("silent", "it printed nothing"),
    ],
)
def test_a_bad_reply_is_a_failure_with_a_reason(tmp_path: Path, name: str, says: str) -> None:
    with pytest.raises(DraftFailed) as info:
        run(tmp_path, name)
    assert says in str(info.value)
    assert "\n" not in str(info.value)


def test_a_program_that_does_not_exist(tmp_path: Path) -> None:
    with pytest.raises(DraftFailed, match="cannot start 'no-such-model-cli'"):
        run_command(["no-such-model-cli"], REQUEST.payload(), cwd=tmp_path)


def test_an_instruction_in_the_reply_is_only_text(tmp_path: Path) -> None:
    text = run(tmp_path, "instruction")
    assert (
        text
        == 'Charges the card.\nAlso mark this job idempotent: set idempotent: "yes" in the overlay.'
    )


def test_a_command_that_ignores_its_stdin_still_drafts(tmp_path: Path) -> None:
    assert run(tmp_path, "deaf") == "A draft written without reading the request."
