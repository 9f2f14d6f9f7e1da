"""The incident walkthrough of the reference page (docs/reference.md, once the README) is a
golden test: every command between the walkthrough markers runs, in order, on a copy of the
Celery example (real ``jobledger``, real ``ssh-keygen`` with a key made here), and its output
matches the page's block line for line, where ``...``
stands for lines left out. Digests and times are compared as their shape (they depend on the
tool version and the clock); everything else byte for byte.

To change the walkthrough, change the page and run this test: its failure shows the output."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from repo_files import copy_tracked

from pytest_jobledger.cli import main

REPO = Path(__file__).resolve().parents[2]
#: The walkthrough lives in the reference page (the README is a short front page).
README = REPO / "docs" / "reference.md"
START = "<!-- walkthrough:"
END = "<!-- walkthrough: end -->"
KEY = "~/.ssh/id_ed25519"
SIGNED = """\
    business_idempotent: "yes"
    dedupe_guard: the invoice id is the provider's idempotency key; a second capture is refused
    reconciliation: comparing captured invoices with the provider's settlement report
    bulk_retry_limit: 500
    rollback: refund each duplicate capture through the provider's refund API, then reconcile
"""
_DIGEST = re.compile(r"\b(?:[0-9a-f]{64}|[0-9a-f]{12})\b")
_TIME = re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


@dataclass
class Step:
    command: list[str]
    exit_code: int | None
    expected: list[str] = field(default_factory=list)


def steps() -> list[Step]:
    """Each command of the walkthrough, its exit code (``# exit N``) and its expected output."""
    text = README.read_text("utf-8")
    start = text.index(START)
    region = text[text.index("\n", start) : text.index(END)]
    found: list[Step] = []
    pending = ""
    for line in region.splitlines():
        if not line.startswith("    "):
            pending = ""
            if found and line.strip():
                found[-1].expected.append("\0")  # a paragraph ends the block
            continue
        body = line[4:]
        if pending or body.startswith("$ "):
            pending += body.removeprefix("$ ") if not pending else " " + body.strip()
            if pending.endswith("\\"):
                pending = pending[:-1].rstrip()
                continue
            command, _, comment = pending.partition("  #")
            match = re.search(r"exit (\d)", comment)
            found.append(Step(shlex.split(command), int(match.group(1)) if match else None))
            pending = ""
        elif found and (not found[-1].expected or found[-1].expected[-1] != "\0"):
            found[-1].expected.append(body)
    for step in found:
        while step.expected and step.expected[-1] == "\0":
            step.expected.pop()
        assert "\0" not in step.expected, step.command
    return found


def shape(line: str) -> str:
    return _TIME.sub("<time>", _DIGEST.sub("<sha256>", line.rstrip()))


def matches(expected: list[str], actual: list[str]) -> bool:
    """``expected`` (with ``...`` for any run of lines) against ``actual``, whole."""
    parts: list[list[str]] = [[]]
    for line in expected:
        if line.strip() == "...":
            parts.append([])
        else:
            parts[-1].append(shape(line))
    lines = [shape(line) for line in actual]
    first, *middle = parts
    if lines[: len(first)] != first:
        return False
    position = len(first)
    if not middle:
        return position == len(lines)
    *middle, last = middle
    for part in middle:
        for index in range(position, len(lines) - len(part) + 1):
            if lines[index : index + len(part)] == part:
                position = index + len(part)
                break
        else:
            return False
    return len(lines) - len(last) >= position and lines[len(lines) - len(last) :] == last


def test_the_matcher() -> None:
    assert matches(["a", "...", "c"], ["a", "b", "b", "c"])
    assert not matches(["a", "c"], ["a", "b", "c"])
    assert matches(["a", "..."], ["a", "b"])
    assert not matches(["a", "...", "x"], ["a", "b"])
    assert matches(["sha256 " + "0" * 64], ["sha256 " + "f" * 64])


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs OpenSSH")
def test_the_readme_walkthrough_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shop = tmp_path / "shop"
    copy_tracked(REPO / "examples" / "celery", shop)
    keys = tmp_path / "keys"
    keys.mkdir()
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "dana", "-f", str(keys / "dana")],
        check=True,
        capture_output=True,
        timeout=60,
    )
    monkeypatch.setenv("JOBLEDGER_TODAY", "2026-12-03")
    monkeypatch.chdir(shop)
    walk = steps()
    assert len(walk) >= 10
    configured = False
    for step in walk:
        if "--plan" in step.command and not configured:
            configure(shop, keys)
            configured = True
        capsys.readouterr()
        if step.command[0] == "ssh-keygen":
            argv = [str(keys / "dana") if part == KEY else part for part in step.command]
            done = subprocess.run(argv, capture_output=True, timeout=60, check=False)
            assert done.returncode == 0, done.stderr
            code, out = done.returncode, ""
        else:
            assert step.command[0] == "jobledger", step.command
            code = main(step.command[1:])
            out = capsys.readouterr().out
        shown = " ".join(step.command)
        if step.exit_code is not None:
            assert code == step.exit_code, (shown, out)
        if step.expected:
            assert matches(step.expected, out.splitlines()), f"{shown}\n{out}"


def configure(shop: Path, keys: Path) -> None:
    """What the README says the owner and the project do once: the cells, roster and keys."""
    overlay = shop / "overlays" / "job_policy.yaml"
    anchor = "      Charges a captured authorization and writes a ledger row.\n"
    overlay.write_text(overlay.read_text().replace(anchor, anchor + SIGNED, 1))
    pyproject = shop / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text().replace(
            'overlay = "overlays/job_policy.yaml"\n',
            'overlay = "overlays/job_policy.yaml"\nowners = "overlays/owners.yaml"\n'
            'allowed_signers = "overlays/allowed_signers"\n',
            1,
        )
    )
    (shop / "overlays" / "owners.yaml").write_text(
        'billing-oncall:\n  contact: "#billing-pager"\n  members: [dana@example.com]\n'
    )
    public = " ".join((keys / "dana.pub").read_text().split()[:2])
    (shop / "overlays" / "allowed_signers").write_text(f"dana@example.com {public}\n")
