"""Signed approvals, end to end with real keys: every case of tests/cases/verdict/approvals.yaml
(each reuse attempt of a signed plan, and input that cannot be checked), then batches bounded
across calls and reconciliation, through the real ``jobledger`` command and ``ssh-keygen``."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from repo_files import copy_tracked

from pytest_jobledger import audit
from pytest_jobledger.audit.chain import encode_head, line_sha256
from pytest_jobledger.cli import main

REPO = Path(__file__).resolve().parents[2]
CASES_FILE = REPO / "tests" / "cases" / "verdict" / "approvals.yaml"
TABLE: dict[str, Any] = yaml.safe_load(CASES_FILE.read_text("utf-8"))
CASES: list[dict[str, Any]] = TABLE["cases"]
JOB = "acme_shop.billing.tasks.capture_invoice"
DAY = "2026-12-03"
SIGNED_FOR_RETRIES = """\
    business_idempotent: "yes"
    dedupe_guard: the invoice id is the provider's idempotency key; a second capture is refused
    reconciliation: comparing captured invoices with the provider's settlement report
    bulk_retry_limit: 500
    rollback: refund each duplicate capture through the provider's refund API, then reconcile
"""
pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs OpenSSH")


@dataclass(frozen=True)
class Keys:
    folder: Path

    def private(self, name: str) -> Path:
        return self.folder / name

    def public(self, name: str) -> str:
        """``ssh-ed25519 AAAA...`` without the comment."""
        return " ".join((self.folder / f"{name}.pub").read_text().split()[:2])


@pytest.fixture(scope="session")
def keys(tmp_path_factory: pytest.TempPathFactory) -> Keys:
    """dana (billing-oncall), eve (allowed to sign, not in the rotation), mallory (unknown)."""
    folder = tmp_path_factory.mktemp("keys")
    for name in ("dana", "eve", "mallory"):
        command = ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", name]
        subprocess.run(command, cwd=folder, check=True, capture_output=True, timeout=60)
    return Keys(folder)


def allowed_signers(keys: Keys, *, revoke_dana: bool = False) -> str:
    dana = f"dana@example.com {keys.public('dana')}"
    return (
        "@revoked " + dana if revoke_dana else dana
    ) + f"\neve@example.com {keys.public('eve')}\n"


@pytest.fixture
def shop(tmp_path: Path, keys: Keys, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The Celery example: capture_invoice signed for retries (limit 500), the roster naming
    dana as billing-oncall's one member, allowed_signers holding dana and eve."""
    monkeypatch.setenv("JOBLEDGER_TODAY", DAY)
    root = tmp_path / "shop"
    copy_tracked(REPO / "examples" / "celery", root)
    overlay = root / "overlays" / "job_policy.yaml"
    anchor = "      Charges a captured authorization and writes a ledger row.\n"
    overlay.write_text(overlay.read_text().replace(anchor, anchor + SIGNED_FOR_RETRIES, 1))
    pyproject = root / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text().replace(
            'overlay = "overlays/job_policy.yaml"\n',
            'overlay = "overlays/job_policy.yaml"\nowners = "overlays/owners.yaml"\n'
            'allowed_signers = "overlays/allowed_signers"\n',
            1,
        )
    )
    (root / "overlays" / "owners.yaml").write_text(
        'billing-oncall:\n  contact: "#billing-pager"\n  members: [dana@example.com]\n'
    )
    (root / "overlays" / "allowed_signers").write_text(allowed_signers(keys))
    return root


def request_args(spec: dict[str, Any]) -> list[str]:
    args = [spec.get("job", JOB), "--action", spec["action"], "--actor", "alice"]
    if spec.get("count") is not None:
        args += ["--count", str(spec["count"])]
    if spec.get("ticket") is not None:
        args += ["--ticket", spec["ticket"]]
    return args


def verdict(root: Path, spec: dict[str, Any], *extra: str) -> int:
    return main(["verdict", *request_args(spec), "--root", str(root), *extra])


def sign(keys: Keys, signer: str, plan: Path, namespace: str = "jobledger-approval") -> Path:
    plan.with_name(plan.name + ".sig").unlink(missing_ok=True)  # ssh-keygen asks before replacing
    command = ["ssh-keygen", "-q", "-Y", "sign", "-f", str(keys.private(signer))]
    subprocess.run(
        [*command, "-n", namespace, plan.name],
        cwd=plan.parent,
        check=True,
        capture_output=True,
        timeout=60,
    )
    return plan.with_name(plan.name + ".sig")


def trail(root: Path) -> list[dict[str, Any]]:
    """The records of the trail a verdict would use now (JOBLEDGER_AUDIT_URL, else the file)."""
    lines = audit.open_store(".jobledger/audit.ndjson", root=root).lines()
    return [dict(line.record) for line in lines if line.record is not None and line.committed]


def cut_before_plan(root: Path) -> list[bytes]:
    """The file trail's lines before the plan's event (the plan is the last one made)."""
    log = root / ".jobledger" / "audit.ndjson"
    lines = log.read_bytes().splitlines(keepends=True)
    plan = max(n for n, raw in enumerate(lines) if json.loads(raw).get("event") == "plan")
    return lines[:plan]


def planned(root: Path, keys: Keys, spec: dict[str, Any], signer: str = "dana", **kw: str) -> Path:
    plan = root.parent / "plan.json"
    assert verdict(root, spec, "--plan", "-o", str(plan)) == 0
    return sign(keys, signer, plan, **kw)


def change_project(root: Path, keys: Keys, change: str | None, monkeypatch: Any) -> None:
    if change == "ledger_row":
        tasks = root / "src" / "acme_shop" / "billing" / "tasks.py"
        tasks.write_text(tasks.read_text().replace("max_retries=5", "max_retries=7"))
        assert main(["extract", "--root", str(root)]) == 0
    elif change == "overlay_entry":
        overlay = root / "overlays" / "job_policy.yaml"
        overlay.write_text(
            overlay.read_text().replace("bulk_retry_limit: 500", "bulk_retry_limit: 450")
        )
    elif change == "revoke":
        (root / "overlays" / "allowed_signers").write_text(allowed_signers(keys, revoke_dana=True))
    elif change == "next_day":
        monkeypatch.setenv("JOBLEDGER_TODAY", "2026-12-04")
    elif change == "bad_allowed_signers":
        signers = root / "overlays" / "allowed_signers"
        dana = allowed_signers(keys).splitlines()[0]
        signers.write_text("carol@example.com ssh-ed25519 ???\n" + dana + "\n")
    elif change == "allowed_signers_symlink_out":
        signers = root / "overlays" / "allowed_signers"
        outside = root.parent / "outside_signers"
        outside.write_text(signers.read_text())
        signers.unlink()
        signers.symlink_to(outside)
    elif change == "allowed_signers_folder_out":
        outside = root.parent / "outside_overlays"
        shutil.move(str(root / "overlays"), outside)
        (root / "overlays").symlink_to(outside, target_is_directory=True)
    elif change == "no_ssh_keygen":
        empty = root.parent / "empty-bin"
        empty.mkdir()
        monkeypatch.setenv("PATH", str(empty))
    elif change == "no_allowed_signers":
        pyproject = root / "pyproject.toml"
        pyproject.write_text(
            pyproject.read_text().replace('allowed_signers = "overlays/allowed_signers"\n', "")
        )
    elif change == "edited_plan":
        plan = root.parent / "plan.json"
        plan.write_text(plan.read_text().replace('"count": 400', '"count": 4000'))
    elif change == "other_trail":
        monkeypatch.setenv(audit.ENV_URL, "ops/other-operator.ndjson")
        verdict(root, {"job": "acme_shop.celery_app.ping", "action": "retry"})
    elif change == "other_empty_store":
        monkeypatch.setenv(audit.ENV_URL, "sqlite:///other.db")
    elif change == "plan_event_cut":
        log = root / ".jobledger" / "audit.ndjson"
        kept = cut_before_plan(root)
        log.write_bytes(b"".join(kept))
        head = audit.head_path(log)
        head.write_text(encode_head(len(kept), line_sha256(kept[-1]) if kept else audit.GENESIS))
    elif change == "copied_without_plan":
        kept = cut_before_plan(root)
        monkeypatch.setenv(audit.ENV_URL, "sqlite:///copy.db")
        audit.open_store("x", root=root).load([raw.rstrip(b"\n") for raw in kept])
    elif change == "hand_edited_plan":
        plan = root.parent / "plan.json"
        plan.write_text(plan.read_text().replace('"count": 400', '"count":  400'))


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_case(
    case: dict[str, Any],
    shop: Path,
    keys: Keys,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    spec = {**TABLE["base"], **case.get("plan", {})}
    change = case.get("change")
    namespace = "file" if change == "namespace" else "jobledger-approval"
    signature = planned(shop, keys, spec, case.get("signer", "dana"), namespace=namespace)
    if change == "corrupt_signature":
        signature.write_text("-----BEGIN SSH SIGNATURE-----\nnot base64 at all\n")
    if change == "reuse":
        assert verdict(shop, spec, "--approval", str(signature)) == 0
        reconcile = ["reconcile", JOB, "--root", str(shop), "--ticket", spec["ticket"]]
        assert main([*reconcile, "--outcome", "confirmed", "--evidence", "matches"]) == 0
    change_project(shop, keys, change, monkeypatch)
    before = trail(shop)
    capsys.readouterr()
    ask = {**spec, **case.get("ask", {})}
    code = verdict(shop, ask, "--approval", str(signature), "--json")
    out, err = capsys.readouterr()
    if "error" in case:
        assert (code, out) == (2, "")
        assert case["error"] in err
        assert len(err.splitlines()) == 1, err
        after = trail(shop)
        assert after[: len(before)] == before, "nothing is rewritten"
        refusals = after[len(before) :]  # a refused request is recorded, and nothing else
        expected = ["refusal"] if case.get("recorded", True) else []
        assert [record["event"] for record in refusals] == expected
        return
    shown = json.loads(out)
    assert shown["verdict"] == case["answer"], shown["blockers"]
    assert [reason["name"] for reason in shown["blockers"]] == case.get("blockers", [])
    assert [reason["name"] for reason in shown["review"]] == case.get("review", [])
    check, decided = trail(shop)[len(before) :]
    assert check["event"] == "approval-check"
    assert check["verified"] is (case["answer"] == "approved")
    assert decided["event"] == "verdict"
    assert decided["verdict"] == case["answer"]
    assert decided["approval_plan_sha256"] == check["plan_sha256"]


def test_the_table_covers_every_reuse_attempt_the_issue_names() -> None:
    named = {name for case in CASES for name in case.get("blockers", [])}
    for subject in (
        "job",
        "count",
        "ticket",
        "ledger-row",
        "overlay-entry",
        "expired",
        "rotation",
        "revoked",
        "trail",
        "unrecorded",
    ):
        assert f"approval-refused:{subject}" in named, subject


def test_the_plan_is_canonical_and_its_digest_is_printed(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = shop.parent / "plan.json"
    capsys.readouterr()
    assert verdict(shop, TABLE["base"], "--plan", "-o", str(plan)) == 0
    out = capsys.readouterr().out
    digest = hashlib.sha256(plan.read_bytes()).hexdigest()
    assert out.startswith(f"sha256 {digest}  {plan}\n")
    document = json.loads(plan.read_bytes())
    assert plan.read_text() == json.dumps(document, indent=2, sort_keys=True) + "\n"
    assert (document["created"], document["expires"]) == (
        f"{DAY}T00:00:00Z",
        "2026-12-04T00:00:00Z",
    )
    assert {"job", "action", "count", "ticket", "ledger_row_sha256", "overlay_entry_sha256"} <= set(
        document
    )
    opened, event = trail(shop)  # the empty trail got its identity first: the plan names it
    assert (event["event"], event["plan_sha256"]) == ("plan", digest)
    assert (opened["event"], document["trail"]) == ("trail", opened["trail_id"])
    assert (
        document["trail_head"]
        == audit.read_lines(shop / ".jobledger" / "audit.ndjson", root=shop)[0].sha256
    )


def test_a_blocked_request_gets_no_plan(shop: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plan = shop.parent / "plan.json"
    spec = {**TABLE["base"], "count": 5000}
    assert verdict(shop, spec, "--plan", "-o", str(plan)) == 1
    assert "No plan was written" in capsys.readouterr().out
    assert not plan.exists()
    assert [event["event"] for event in trail(shop)] == ["verdict"]


def test_two_batches_and_a_mismatch(
    shop: Path, keys: Keys, capsys: pytest.CaptureFixture[str]
) -> None:
    """The incident: batch one approved; batch two waits for its reconciliation; a mismatch
    blocks batch three until a plan signed after it; the counts add up against the limit."""
    first = {**TABLE["base"], "count": 200}
    assert verdict(shop, first, "--approval", str(planned(shop, keys, first))) == 0
    second = {**TABLE["base"], "count": 200}
    capsys.readouterr()
    assert verdict(shop, second, "--plan", "-o", str(shop.parent / "plan.json")) == 1
    out = capsys.readouterr().out
    assert "batch-not-reconciled:reconciliation" in out
    assert "No plan was written" in out
    reconcile = ["reconcile", JOB, "--root", str(shop), "--ticket", "INC-4711", "--actor", "bo"]
    assert main([*reconcile, "--outcome", "confirmed", "--evidence", "settlement matches"]) == 0
    assert verdict(shop, second, "--approval", str(planned(shop, keys, second))) == 0
    assert main([*reconcile, "--outcome", "mismatch", "--evidence", "3 captured twice"]) == 0
    third = {**TABLE["base"], "count": 100}
    capsys.readouterr()
    assert verdict(shop, third, "--approved-by", "billing-oncall") == 1
    assert "reconciliation-mismatch:ticket" in capsys.readouterr().out
    assert verdict(shop, third, "--approval", str(planned(shop, keys, third))) == 0
    assert main([*reconcile, "--outcome", "confirmed", "--evidence", "ok"]) == 0
    fourth = {**TABLE["base"], "count": 1}
    capsys.readouterr()
    assert verdict(shop, fourth, "--plan", "-o", str(shop.parent / "plan4.json")) == 1
    assert "500 jobs were already approved on this ticket in 3 batch(es)" in (
        capsys.readouterr().out
    )


def test_reconcile_with_nothing_to_reconcile_records_nothing(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["reconcile", JOB, "--root", str(shop), "--ticket", "INC-1"]
    assert main([*args, "--outcome", "confirmed", "--evidence", "x"]) == 2
    assert "nothing to reconcile" in capsys.readouterr().err
    assert trail(shop) == []
    assert main([*args, "--outcome", "confirmed", "--evidence", "  "]) == 2
    assert "--evidence is empty" in capsys.readouterr().err


def test_a_typed_approval_never_approves_a_bulk_retry(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert verdict(shop, TABLE["base"], "--approved-by", "billing-oncall") == 3
    out = capsys.readouterr().out
    assert "typed, not signed" in out
    assert 'approved_by         "billing-oncall"  [self-reported --approved-by]' in out


def test_reruns_asked_without_a_ticket_are_reconciled_without_one(
    shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A retry asked without --ticket is bounded like any other, and its group can be
    reconciled (no dead end where the next ticketless retry waits for ever)."""
    overlay = shop / "overlays" / "job_policy.yaml"  # signed idempotent: a harmless R2 retry
    text = overlay.read_text("utf-8")
    entry = text.index(f"  {JOB}:\n")
    tail = text[entry:].replace('idempotent: "no"', 'idempotent: "yes"', 1)
    overlay.write_text(text[:entry] + tail, "utf-8")
    retry = ["verdict", JOB, "--action", "retry", "--actor", "alice", "--root", str(shop)]
    assert main(retry) == 0
    out = capsys.readouterr().out
    assert f"`jobledger reconcile {JOB} --outcome confirmed|mismatch --evidence TEXT`" in out
    assert main(retry) == 1
    out = capsys.readouterr().out
    assert "batch-not-reconciled:reconciliation" in out
    assert "--ticket" not in out.split("Next:")[1]
    reconcile = ["reconcile", JOB, "--root", str(shop), "--outcome", "confirmed"]
    assert main([*reconcile, "--evidence", "the provider shows one capture"]) == 0
    assert "asked without a --ticket" in capsys.readouterr().out
    assert trail(shop)[-1]["ticket"] is None
    assert main(retry) == 0
    assert main([*reconcile, "--ticket", "INC-1", "--evidence", "x"]) == 2
    assert "nothing to reconcile" in capsys.readouterr().err
