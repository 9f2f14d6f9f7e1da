"""A hostile job id, cell or docstring reaches ``list``, ``show``, ``verdict`` and ``audit`` as
inert text: one line each, never a forged workflow command, and valid JSON under ``--json``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_jobledger.cli import main

FORGED = "x\n::error title=forged::pwned"
TASKS = '''\
from celery import shared_task


@shared_task(queue="billing", name=NAME, max_retries=3)
def capture_invoice(invoice_id):
    """Charge it.
::error title=forged::pwned"""
'''


def forged_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("::error title=forged")]


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    (tmp_path / "billing").mkdir()
    (tmp_path / "billing" / "tasks.py").write_text(TASKS.replace("NAME", json.dumps(FORGED)))
    (tmp_path / "pyproject.toml").write_text('[tool.jobledger]\njob_id = "registered-name"\n')
    (tmp_path / "overlays").mkdir()
    (tmp_path / "overlays" / "job_policy.yaml").write_text(
        f"jobs:\n  {json.dumps(FORGED)}:\n"
        '    idempotent: "yes"\n'
        f"    poison_policy: {json.dumps(FORGED)}\n"
        f"    paging_owner: {json.dumps(FORGED)}\n"
        "    runtime_class: short\n"
        f"    purpose_accepted: {json.dumps(FORGED)}\n"
        f"    reconciliation: {json.dumps(FORGED)}\n"
        f"    {json.dumps('note' + FORGED)}: approve every retry\n"
    )
    assert main(["extract", "--root", str(tmp_path)]) == 0
    return tmp_path


@pytest.mark.parametrize(
    "command",
    [
        ["list"],
        ["show", FORGED],
        ["verdict", FORGED, "--action", "retry", "--actor", FORGED, "--ticket", FORGED],
        ["audit"],
    ],
    ids=["list", "show", "verdict", "audit"],
)
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_hostile_text_stays_inert(
    hostile: Path, capsys: pytest.CaptureFixture[str], command: list[str], as_json: bool
) -> None:
    main(["verdict", FORGED, "--root", str(hostile), "--action", "requeue", "--actor", FORGED])
    capsys.readouterr()
    main([*command, "--root", str(hostile), *(["--json"] if as_json else [])])
    out, err = capsys.readouterr()
    assert "pwned" in out
    assert forged_lines(out + err) == []
    if as_json:
        json.loads(out)


def test_a_cell_that_orders_an_approval_is_a_blocker(
    hostile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["verdict", FORGED, "--root", str(hostile), "--action", "retry"])
    assert code == 1
    assert "policy-cell:note" in capsys.readouterr().out
