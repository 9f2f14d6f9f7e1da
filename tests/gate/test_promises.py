"""A signed promise checked against the code, on the bundled examples as they once shipped: a
late-acked Celery capture and a bare Dramatiq actor, both signed not idempotent. Each fails with
a message a reviewer can act on; the examples as bundled (the rerun turned off in code) pass."""

from __future__ import annotations

import json
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


def test_the_contradiction_is_annotated_at_the_promise_and_at_the_registration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("GITHUB_ACTIONS", "GITHUB_WORKSPACE", "GITHUB_EVENT_PATH", "GITHUB_BASE_REF"):
        monkeypatch.delenv(name, raising=False)
    root = example("celery", tmp_path / "celery")
    source, fixed, unfixed, _ = UNFIXED["celery"]
    path = root / source
    path.write_text(path.read_text("utf-8").replace(fixed, unfixed, 1), "utf-8")
    assert main(["extract", "--root", str(root)]) == 0
    capsys.readouterr()
    assert main(["check", "--root", str(root), "--format", "github"]) == 1
    errors = [line for line in capsys.readouterr().out.splitlines() if line.startswith("::error")]
    assert [line.split("::")[1].split(",title=")[0] for line in errors] == [
        "error file=overlays/job_policy.yaml,line=11,endLine=11",
        f"error file={source},line=12,endLine=12",
    ]
    assert main(["check", "--root", str(root), "--format", "sarif"]) == 1
    (result,) = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    assert result["ruleId"].endswith("rerun-not-idempotent")
    related = result["relatedLocations"][0]["physicalLocation"]
    assert related["artifactLocation"]["uri"] == source
    assert related["region"] == {"startLine": 12}
