"""The committed view: each file read once and hashed as read, the committed ledger preferred, and
a fresh extraction used only to say whether it is stale (or when there is no usable one)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from pytest_jobledger.gate.committed import COMMITTED, FRESH
from pytest_jobledger.project import load_config
from pytest_jobledger.session import Session

REPO = Path(__file__).resolve().parents[2]


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_hashes_are_of_the_bytes_read(shop: Path) -> None:
    snapshot = Session.open(load_config(root=shop)).committed_view
    assert snapshot.origin == COMMITTED
    assert snapshot.stale is None
    assert snapshot.ledger_sha256 == sha(shop / "generated" / "job_ledger.json")
    assert snapshot.overlay_sha256 == sha(shop / "overlays" / "job_policy.yaml")
    assert len(snapshot.ids) == 8


def test_the_committed_ledger_is_what_is_joined_even_when_stale(shop: Path) -> None:
    tasks = shop / "src" / "acme_shop" / "billing" / "tasks.py"
    tasks.write_text(tasks.read_text().replace("max_retries=5", "max_retries=9"))
    snapshot = Session.open(load_config(root=shop)).committed_view
    assert snapshot.stale == "acme_shop.billing.tasks.capture_invoice: max_retries 5 -> 9"
    row = snapshot.joined("acme_shop.billing.tasks.capture_invoice")
    assert row is not None
    assert row.job.max_retries == 5


def test_a_committed_file_that_is_not_a_ledger_is_stale_and_the_code_is_read(shop: Path) -> None:
    (shop / "generated" / "job_ledger.json").write_text("[]\n")
    snapshot = Session.open(load_config(root=shop)).committed_view
    assert snapshot.origin == FRESH
    assert snapshot.stale == (
        "generated/job_ledger.json cannot be read as a ledger: it is JSON but not a ledger "
        "(no `jobs` list at the top)"
    )
    assert len(snapshot.ids) == 8


def test_no_committed_ledger_is_not_stale(shop: Path) -> None:
    (shop / "generated" / "job_ledger.json").unlink()
    snapshot = Session.open(load_config(root=shop)).committed_view
    assert (snapshot.origin, snapshot.stale) == (FRESH, None)
    assert snapshot.ledger_sha256 == hashlib.sha256(snapshot.ledger.dumps().encode()).hexdigest()


def test_an_overlay_that_does_not_parse_is_still_hashed(shop: Path) -> None:
    overlay = shop / "overlays" / "job_policy.yaml"
    overlay.write_text("jobs: [\n")
    snapshot = Session.open(load_config(root=shop)).committed_view
    assert snapshot.overlay is None
    assert snapshot.overlay_error is not None
    assert snapshot.overlay_sha256 == sha(overlay)
    assert all(check.skipped for row in snapshot.result.jobs for check in row.checks)
