"""The runbook's model: lanes, defaults, anchors, and what a published page can never hold."""

from __future__ import annotations

from pathlib import Path

import pytest
from repo_files import copy_tracked

from pytest_jobledger.findings import GateResult
from pytest_jobledger.project import load_config
from pytest_jobledger.reporters.runbook import blockers, build_runbook, render_runbook
from pytest_jobledger.reporters.runbook.build import anchor_for
from pytest_jobledger.reporters.runbook.defaults import DEFAULTS, documented_default
from pytest_jobledger.session import evaluate

REPO = Path(__file__).resolve().parents[3]
PARTLY = REPO / "tests" / "cases" / "runbook" / "partly_signed"
CELERY = REPO / "examples" / "celery"


def test_the_defaults_table_holds_the_documented_figures() -> None:
    table = {(row.framework, row.field): row.value for row in DEFAULTS}
    assert table == {
        ("celery", "max_retries"): 3,
        ("celery", "retry_delay_s"): 180,
        ("celery", "soft_time_limit_s"): None,
        ("celery", "time_limit_s"): None,
        ("dramatiq", "max_retries"): 20,
        ("dramatiq", "time_limit_s"): 600,  # 600,000 ms
        ("rq", "time_limit_s"): 180,
        ("huey", "max_retries"): 0,
        ("django-tasks", "queue"): "default",
        ("procrastinate", "queue"): "default",
        ("procrastinate", "max_retries"): 0,
        ("arq", "queue"): "arq:queue",
        ("arq", "max_retries"): 4,  # max_tries=5 counts the first run
        ("arq", "time_limit_s"): 300,
    }
    assert all(row.url.startswith("https://") for row in DEFAULTS)


def test_a_default_is_shown_only_for_a_field_the_registration_did_not_set() -> None:
    assert documented_default("celery", "max_retries", "not set at registration") is not None
    assert documented_default("celery", "max_retries", "RETRIES is not a literal") is None
    assert documented_default("custom", "max_retries", "not set at registration") is None
    assert documented_default("rq", "max_retries", "not set at registration") is None


def test_numbers_come_from_the_ledger_and_defaults_are_labelled() -> None:
    config = load_config(root=CELERY)
    book = build_runbook(evaluate(config), config)
    jobs = {job.id: job for job in book.jobs}
    capture = {
        value.field: value for value in jobs["acme_shop.billing.tasks.capture_invoice"].ledger
    }
    assert (capture["max_retries"].value, capture["max_retries"].default) == (5, None)
    void = {
        value.field: value for value in jobs["acme_shop.billing.tasks.void_authorization"].ledger
    }
    assert void["max_retries"].value is None  # never the default written as if it were the value
    assert void["max_retries"].default is not None
    assert void["max_retries"].default.value == 3
    report = {
        value.field: value for value in jobs["acme_shop.reports.tasks.build_sales_report"].ledger
    }
    assert report["queue"].reason == "settings.REPORTS_QUEUE is not a literal"
    assert report["queue"].default is None


def test_anchors_are_stable_distinct_and_plain() -> None:
    ids = ["a.b_c", "a.b.c", "a.B.c", "A.b.c", "a|b`c", "", "ünïcode.job"]
    anchors = [anchor_for(job_id) for job_id in ids]
    assert len(set(anchors)) == len(ids)
    assert anchors == [anchor_for(job_id) for job_id in ids]
    assert all(anchor.startswith("job-") for anchor in anchors)
    assert all(set(anchor) <= set("abcdefghijklmnopqrstuvwxyz0123456789-") for anchor in anchors)
    assert anchor_for("acme.billing.tasks.capture_invoice").startswith(
        "job-acme-billing-tasks-capture-invoice-"
    )


def _signed_copy(tmp_path: Path) -> Path:
    """The half-signed case with every cell signed, its drafts file left in place."""
    root = tmp_path / "project"
    copy_tracked(PARTLY, root)
    overlay = root / "overlays" / "job_policy.yaml"
    text = overlay.read_text("utf-8").replace("idempotent: yes", 'idempotent: "yes"')
    text = text.replace("poison_policy: unknown", "poison_policy: drop after retries")
    text = text.replace("purpose_accepted: tbd", "purpose_accepted: Emails the receipt.")
    text += (
        "  acme.billing.tasks.refund_invoice:\n"
        '    idempotent: "no"\n'
        "    poison_policy: park; a person refunds by hand\n"
        "    paging_owner: billing-oncall\n"
        "    runtime_class: asynchronous-short\n"
        "    purpose_accepted: Refunds an invoice in full.\n"
    )
    overlay.write_text(text, encoding="utf-8")
    return root


def test_a_published_page_never_holds_a_draft_or_a_blocked_value(tmp_path: Path) -> None:
    root = _signed_copy(tmp_path)
    config = load_config(root=root)
    result = evaluate(config)
    assert blockers(result) == ()
    drafts = (root / "overlays" / "purpose_drafts.yaml").read_text("utf-8")
    assert "Also mark this job idempotent." in drafts
    for fmt in ("markdown", "json"):
        page = render_runbook(result, config, fmt=fmt)
        for draft_text in (
            "DRAFT-SHOULD-NOT-SHOW",
            "Also mark this job idempotent",
            "Refunds part",
        ):
            assert draft_text not in page
        assert "unverified" not in page.lower()
        for blocked in ("unknown", "tbd", "[UNSIGNED]", "[INVALID]", "[NOT JUDGED]"):
            assert blocked not in page


def test_publishing_a_result_with_blockers_is_refused() -> None:
    config = load_config(root=PARTLY)
    result = evaluate(config)
    assert len(blockers(result)) == 8
    with pytest.raises(ValueError, match="not published"):
        build_runbook(result, config)


def test_a_skipped_check_blocks_like_a_failing_one(tmp_path: Path) -> None:
    root = _signed_copy(tmp_path)
    (root / "overlays" / "job_policy.yaml").write_text("jobs: [unclosed\n", encoding="utf-8")
    result = evaluate(load_config(root=root))
    assert any(check.skipped for check in blockers(result))
    preview = build_runbook(result, load_config(root=root), preview=True)
    assert {cell.state for job in preview.jobs for cell in job.policy} == {"not-judged"}
    assert preview.overlay.sha256 is None


def test_a_preview_without_inputs_still_renders() -> None:
    config = load_config(root=PARTLY)
    result = evaluate(config)
    bare = GateResult(result.checks, result.jobs)
    # the inputs' digests are the footer's: the last paragraph
    assert "no file" in render_runbook(bare, config, preview=True).split("\n\n")[-1]
