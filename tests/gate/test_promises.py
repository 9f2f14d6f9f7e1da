"""A signed promise checked against the code, on the bundled examples as they once shipped: a
late-acked Celery capture and a bare Dramatiq actor, both signed not idempotent. Each fails with
a message a reviewer can act on; the examples as bundled (the rerun turned off in code) pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import example

from pytest_jobledger.cli import main

#: example, source file, the fix as bundled, the shape it replaced, and what the failure says.
UNFIXED = {
    "celery": (
        "src/acme_shop/billing/tasks.py",
        "max_retries=5, soft_time_limit=120)",
        "max_retries=5, soft_time_limit=120, acks_late=True)",
        [
            "overlays/job_policy.yaml:11: acme_shop.billing.tasks.capture_invoice::rerun "
            "[rerun-not-idempotent]",
            'signed `idempotent: "no"` at overlays/job_policy.yaml:11',
            "registration at src/acme_shop/billing/tasks.py:12",
            "redelivered on worker loss (acks_late=True)",
            "Sign `dedupe_guard:`",
        ],
    ),
    "dramatiq": (
        "src/acme_analytics/ingest.py",
        "@dramatiq.actor(max_retries=0)\n",
        "@dramatiq.actor\n",
        [
            "overlays/job_policy.yaml:25: acme_analytics.ingest.record_page_view::rerun "
            "[rerun-not-idempotent]",
            "retried up to 20 times by the framework (the documented default of 20)",
            "turn the rerun off at src/acme_analytics/ingest.py:6",
        ],
    ),
}


@pytest.mark.parametrize("name", sorted(UNFIXED))
def test_the_unfixed_example_fails_on_its_contradiction(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = example(name, tmp_path / name)
    assert main(["check", "--root", str(root)]) == 0, capsys.readouterr().out
    source, fixed, unfixed, says = UNFIXED[name]
    path = root / source
    text = path.read_text("utf-8")
    assert fixed in text
    path.write_text(text.replace(fixed, unfixed, 1), "utf-8")
    assert main(["extract", "--root", str(root)]) == 0
    capsys.readouterr()
    assert main(["check", "--root", str(root), "-v"]) == 1
    out = capsys.readouterr().out
    for text in says:
        assert text in out, out
