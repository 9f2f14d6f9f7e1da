"""``jobledger list`` and ``show``: the committed ledger and the overlay, each fact with its
source, and a stale ledger always said."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_jobledger.cli import main

REPO = Path(__file__).resolve().parents[2]
JOB = "acme_shop.billing.tasks.capture_invoice"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().out


def test_list_is_one_line_per_job_with_its_signed_policy(
    shop: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(shop)  # paths are shown from the current folder
    code, out = run(capsys, "list", "--root", str(shop))
    lines = out.splitlines()
    assert code == 0
    assert (
        lines[0] == "ledger: generated/job_ledger.json (committed), the same as a fresh extraction"
    )
    assert lines[2].split() == [
        "ID", "QUEUE", "RETRIES", "IDEMPOTENT", "(SIGNED)", "PAGING", "OWNER", "(SIGNED)", "STATE"
    ]  # fmt: skip
    row = next(line for line in lines if line.startswith(JOB))
    assert row.split() == [JOB, "billing", "5", "no", "billing-oncall", "signed"]
    unproved = next(line for line in lines if "void_authorization" in line)
    assert unproved.split()[1:3] == ["?", "?"]  # not proved from the source: never guessed
    assert lines[-1] == "8 jobs"


def test_list_filters(shop: Path, capsys: pytest.CaptureFixture[str]) -> None:
    overlay = shop / "overlays" / "job_policy.yaml"
    overlay.write_text(overlay.read_text().replace("paging_owner: data-oncall", "paging_owner: "))
    _, out = run(capsys, "list", "--root", str(shop), "--unsigned")
    assert [line.split()[0] for line in out.splitlines()[3:-1]] == [
        "acme_shop.reports.tasks.build_sales_report"
    ]
    assert "1 cell fails" in out
    assert out.splitlines()[-1] == "1 of 8 jobs"
    _, out = run(capsys, "list", "--root", str(shop), "--queue", "mail")
    assert [line.split()[0] for line in out.splitlines()[3:-1]] == [
        "acme_shop.notifications.tasks.send_receipt"
    ]
    _, out = run(capsys, "list", "--root", str(shop), "--owner", "Platform-Oncall", "--json")
    assert [row["id"] for row in json.loads(out)["jobs"]] == ["acme_shop.celery_app.ping"]


def test_list_json_is_stable_and_names_its_sources(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, first = run(capsys, "list", "--root", str(shop), "--json")
    _, second = run(capsys, "list", "--root", str(shop), "--json")
    assert first == second
    document = json.loads(first)
    assert first == json.dumps(document, indent=2, sort_keys=True) + "\n"
    assert document["ledger"] == {
        "path": "generated/job_ledger.json",
        "origin": "committed",
        "stale": None,
        "sha256": document["ledger"]["sha256"],
    }
    row = next(row for row in document["jobs"] if row["id"] == JOB)
    assert row == {
        "id": JOB,
        "queue": "billing",
        "max_retries": 5,
        "idempotent": "no",
        "paging_owner": "billing-oncall",
        "signed": True,
        "failing": 0,
        "state": "signed",
    }


def test_a_stale_committed_ledger_is_said_and_still_what_is_shown(
    shop: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(shop)  # paths are shown from the current folder
    tasks = shop / "src" / "acme_shop" / "billing" / "tasks.py"
    tasks.write_text(tasks.read_text().replace("max_retries=5", "max_retries=9"))
    _, out = run(capsys, "list", "--root", str(shop))
    assert out.splitlines()[0] == (
        f"ledger: generated/job_ledger.json (committed) is STALE against the code: {JOB}: "
        "max_retries 5 -> 9; "
        "run `jobledger extract` and commit it"
    )
    row = next(line for line in out.splitlines() if line.startswith(JOB))
    assert row.split()[2] == "5"  # the committed value, flagged as stale above
    _, out = run(capsys, "show", JOB, "--root", str(shop))
    assert "is STALE against the code" in out.splitlines()[1]


def test_show_is_the_whole_card_with_every_source(
    shop: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(shop)  # paths are shown from the current folder
    code, out = run(capsys, "show", JOB, "--root", str(shop))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == JOB
    assert lines[3] == "state: signed (every cell the gate judges passes)"
    assert '  queue             "billing"  [source src/acme_shop/billing/tasks.py:12]' in lines
    assert (
        "  name              [missing src/acme_shop/billing/tasks.py:12] not set at registration"
        in lines
    )
    assert '  idempotent          "no"  [signed overlays/job_policy.yaml:11]' in lines
    assert "  dedupe_guard        [missing] not in the job's overlay entry" in lines
    assert lines[-1] == "Findings: none; every cell the gate judges passes"


def test_show_names_each_finding(shop: Path, capsys: pytest.CaptureFixture[str]) -> None:
    overlay = shop / "overlays" / "job_policy.yaml"
    text = overlay.read_text().replace('idempotent: "no"', "idempotent: no", 1)
    overlay.write_text(text + "    paging_onwer: someone\n")
    code, out = run(
        capsys, "show", "acme_shop.reports.tasks.build_sales_report", "--root", str(shop)
    )
    assert code == 0
    assert "state: 1 failing (see Findings)" in out
    assert "  paging_onwer  (not a cell: see Findings)" in out
    assert "overlays/job_policy.yaml:59: [unknown-key]" in out
    _, out = run(capsys, "show", JOB, "--root", str(shop), "--json")
    document = json.loads(out)
    assert document["signed"] is False
    assert [finding["kind"] for finding in document["findings"]] == ["not-yes-no"]
    fact = next(fact for fact in document["facts"] if fact["name"] == "idempotent")
    assert (fact["evidence"], fact["value"], fact["where"]) == (
        "missing",
        None,
        "overlays/job_policy.yaml:11",
    )
    assert document["row"]["max_retries"] == 5


def test_show_an_unknown_id_exits_2_with_did_you_mean(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["show", "send_receipt", "--root", str(shop)]) == 2
    assert "did you mean acme_shop.notifications.tasks.send_receipt?" in capsys.readouterr().err


def test_without_a_committed_ledger_the_code_is_read_and_that_is_said(
    shop: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(shop)  # paths are shown from the current folder
    (shop / "generated" / "job_ledger.json").unlink()
    _, out = run(capsys, "show", JOB, "--root", str(shop))
    assert out.splitlines()[1] == (
        "ledger: a fresh extraction of the code (no committed ledger at generated/job_ledger.json)"
    )
    _, out = run(capsys, "list", "--root", str(shop), "--json")
    assert json.loads(out)["ledger"]["origin"] == "fresh"


def test_a_job_only_the_code_knows_is_named_as_such(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tasks = shop / "src" / "acme_shop" / "billing" / "tasks.py"
    tasks.write_text(tasks.read_text() + "\n\n@app.task\ndef settle(day: str) -> None:\n    pass\n")
    assert main(["show", "acme_shop.billing.tasks.settle", "--root", str(shop)]) == 2
    err = capsys.readouterr().err
    assert "the code registers it, but the committed ledger is stale (added " in err
