"""``jobledger verdict``: the exit code is the answer, the card leads with it, every verdict leaves
its audit line first, and no verdict is printed when the line cannot be written."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from helpers import example, signed_overlay

from pytest_jobledger import audit
from pytest_jobledger.audit import log as audit_log
from pytest_jobledger.cli import main
from pytest_jobledger.core.atomic import locked

REPO = Path(__file__).resolve().parents[2]
JOB = "acme_shop.billing.tasks.capture_invoice"
SIGNED_FOR_RETRIES = """\
    business_idempotent: "no"
    dedupe_guard: the provider's idempotency key is the invoice id
    reconciliation: comparing captured invoices with the provider's settlement report
    bulk_retry_limit: 50
    rollback: refund each duplicate capture through the provider's refund API
"""


def harmless(root: Path) -> None:
    """Sign the job idempotent and business-idempotent: a retry of it is a harmless R2, which
    needs no signed plan."""
    overlay = root / "overlays" / "job_policy.yaml"
    text = overlay.read_text("utf-8")
    entry = text.index(f"  {JOB}:\n")
    head, tail = text[:entry], text[entry:]
    tail = tail.replace('idempotent: "no"', 'idempotent: "yes"', 1)
    overlay.write_text(
        head + tail.replace('business_idempotent: "no"', 'business_idempotent: "yes"')
    )


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    """The bundled Celery example, with capture_invoice signed for retries."""
    root = example("celery", tmp_path / "shop")
    signed_overlay(root, SIGNED_FOR_RETRIES)
    return root


def verdict(root: Path, *args: str) -> list[str]:
    return ["verdict", JOB, "--root", str(root), "--actor", "alice", *args]


def test_approved_exits_0_and_says_what_to_do_afterwards(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    harmless(shop)
    assert main(verdict(shop, "--action", "retry", "--ticket", "INC-1")) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"APPROVED: retry of {JOB}"
    assert (
        "afterwards, reconcile the business outcome by comparing captured invoices with the "
        "provider's settlement report, independently of the job's own success report"
    ) in "\n".join(out)
    (audit_line,) = [line for line in out if line.startswith("Audit: ")]
    assert audit_line.startswith("Audit: recorded as line 1 of .jobledger/audit.ndjson (sha256 ")
    (line,) = audit.read_lines(shop / ".jobledger" / "audit.ndjson", root=shop)
    assert line.record is not None
    assert line.record["verdict"] == "approved"
    assert (line.record["actor"], line.record["ticket"]) == ("alice", "INC-1")


def test_blocked_exits_1_and_names_every_blocker(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = verdict(shop, "--action", "bulk-retry", "--count", "4000", "--approved-by", "bob")
    assert main(args) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"BLOCKED: bulk-retry of 4000 jobs of {JOB}\nBlockers (1):\n")
    assert (
        "bulk-over-limit:count: --count 4000 is over the bulk_retry_limit of 50, signed at " in out
    )
    assert "Review (2):" in out
    assert "not-business-idempotent:business_idempotent" in out
    assert (
        "tier-approval:approval: a bulk-retry here is R4 (R4 for the action): "
        "--approved-by 'bob' is not the job's signed paging owner" in out
    )
    assert "  1. do not bulk-retry yet" in out


def test_needs_review_exits_3(shop: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(verdict(shop, "--action", "replay")) == 3
    assert capsys.readouterr().out.startswith(f"NEEDS-REVIEW: replay of {JOB}\n")


def test_json_is_stable_and_carries_the_audit_line(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    harmless(shop)
    assert main(verdict(shop, "--action", "retry", "--ticket", "INC-1", "--json")) == 0
    first = capsys.readouterr().out
    shown = json.loads(first)
    assert first == json.dumps(shown, indent=2, sort_keys=True) + "\n"
    assert (shown["verdict"], shown["exit_code"]) == ("approved", 0)
    assert shown["audit"]["line"] == 1
    assert shown["ledger"]["origin"] == "committed"
    assert {fact["evidence"] for fact in shown["facts"]} <= {
        "source",
        "signed",
        "self-reported",
        "missing",
    }
    reconciled = ["reconcile", JOB, "--root", str(shop), "--ticket", "INC-1"]
    assert main([*reconciled, "--outcome", "confirmed", "--evidence", "the report matches"]) == 0
    capsys.readouterr()
    assert main(verdict(shop, "--action", "retry", "--ticket", "INC-1", "--json")) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["audit"]["line"] == 3
    del shown["audit"], again["audit"]
    assert shown == again


def test_the_audit_line_names_what_the_decision_read(shop: Path) -> None:
    assert main(verdict(shop, "--action", "bulk-retry", "--count", "10")) == 3
    (line,) = audit.read_lines(shop / ".jobledger" / "audit.ndjson", root=shop)
    record = line.record
    assert record is not None
    assert record["prev"] == audit.GENESIS
    assert record["time"].endswith("Z")
    assert record["review"] == [
        "not-business-idempotent:business_idempotent",
        "tier-approval:approval",
    ]
    assert record["tier"] == "R4"
    assert record["ledger_sha256"] == _sha256(shop / "generated" / "job_ledger.json")
    assert record["overlay_sha256"] == _sha256(shop / "overlays" / "job_policy.yaml")
    assert {"job", "action", "count", "ticket", "verdict", "blockers", "version"} <= set(record)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_log_location_nobody_can_write_prints_no_verdict(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Root ignores chmod, so the log's folder is a regular file: no user can write inside it."""
    (shop / ".jobledger").write_text("")
    assert main(verdict(shop, "--action", "retry")) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("jobledger: .jobledger/audit.ndjson: cannot append to the audit log")
    assert "No verdict was given" in err
    assert len(err.splitlines()) == 1


def test_a_lock_held_too_long_prints_no_verdict(
    shop: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(audit_log, "LOCK_TIMEOUT_S", 0.05)
    path = shop / ".jobledger" / "audit.ndjson"
    with locked(path, root=shop):
        code = main(verdict(shop, "--action", "retry", "--json"))
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert "held the lock" in err
    assert not path.exists()


def test_an_unknown_id_suggests_the_one_meant_and_records_only_the_refusal(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["verdict", "capture_invoice", "--root", str(shop), "--action", "retry"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert (
        err
        == f"jobledger: no job capture_invoice in generated/job_ledger.json; did you mean {JOB}?\n"
    )
    assert main([*args[:1], "acme_shop.billing.tasks.capture_invoce", *args[2:]]) == 2
    assert f"did you mean {JOB}?" in capsys.readouterr().err
    records = [
        line.record for line in audit.read_lines(shop / ".jobledger" / "audit.ndjson", root=shop)
    ]
    assert [record["event"] for record in records if record is not None] == ["refusal", "refusal"]


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (["--action", "retry", "--count", "5"], "a retry touches one job"),
        (["--action", "bulk-retry", "--count", "0"], "a count is 1 or more"),
        (["--action", "retry", "--approved-by", " "], "--approved-by is empty"),
        (["--action", "retry", "--actor", ""], "--actor is empty"),
        (["--action", "retry", "--plan"], "--plan needs -o FILE"),
        (["--action", "retry", "-o", "plan.json"], "add --plan or leave it out"),
        (["--action", "retry", "--plan", "-o", "-"], "give -o FILE, not -"),
        (
            ["--action", "retry", "--plan", "-o", "p.json", "--approval", "p.json.sig"],
            "not both",
        ),
        (["--action", "retry", "--approval", "plan.json"], "pass that file"),
        (["--action", "retry", "--approval", "missing.json.sig"], "the plan does not exist"),
    ],
)
def test_a_bad_request_is_a_usage_error(
    shop: Path, capsys: pytest.CaptureFixture[str], extra: list[str], says: str
) -> None:
    assert main(["verdict", JOB, "--root", str(shop), *extra]) == 2
    assert says in capsys.readouterr().err
    (line,) = audit.read_lines(shop / ".jobledger" / "audit.ndjson", root=shop)
    assert line.record is not None
    assert line.record["event"] == "refusal"  # recorded, and no verdict was given
    assert says in line.record["reason"]


def test_an_unknown_action_is_refused_by_the_parser(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["verdict", JOB, "--root", str(shop), "--action", "retry-all"])
    assert info.value.code == 2
    assert "invalid choice: 'retry-all'" in capsys.readouterr().err


def test_a_stale_ledger_is_said_and_needs_review(
    shop: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(shop)  # paths are shown from the current folder
    tasks = shop / "src" / "acme_shop" / "billing" / "tasks.py"
    tasks.write_text(tasks.read_text().replace("max_retries=5", "max_retries=9"))
    assert main(verdict(shop, "--action", "retry")) == 3
    out = capsys.readouterr().out
    assert (
        "ledger-stale:ledger: the committed ledger is not what the code gives now "
        f"({JOB}: max_retries 5 -> 9)" in out
    )
    assert "max_retries         5  [source src/acme_shop/billing/tasks.py:12]" in out
