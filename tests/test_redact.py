"""Minimised text: a secret in a docstring or a signed cell never reaches a terminal, ``--json``,
the runbook or a verdict card; a marker says one was withheld and where."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from repo_files import copy_tracked

from pytest_jobledger.cli import main
from pytest_jobledger.core import redact as redaction
from pytest_jobledger.core.redact import redact

REPO = Path(__file__).resolve().parents[1]
JOB = "acme_shop.billing.tasks.capture_invoice"
KEY = "AKIAIOSFODNN7EXAMPLE"
TOKEN = "ghp_" + "a1B2c3D4e5" * 4


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (f"Charge it.\nUse {KEY} for the provider.", "AWS"),
        (f"the deploy token is {TOKEN}", "GitHub"),
        ("reach it at https://bob:s3cretpw0rd@db.example.com/billing", "credentials in a URL"),
        ("password = hunter2hunter", "secret"),
        (
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n"
            "-----END OPENSSH PRIVATE KEY-----",
            "private key",
        ),
    ],
)
def test_a_secret_is_withheld_with_its_kind_and_line(text: str, kind: str) -> None:
    shown = redact(text, "billing/tasks.py:14")
    assert "[secret withheld: " in shown
    assert kind.lower() in shown.lower()
    for secret in (KEY, TOKEN, "s3cretpw0rd", "hunter2hunter", "b3BlbnNzaC1rZXk"):
        assert secret not in shown
    line = 15 if kind == "AWS" else 14  # the key is on the text's second line
    assert f"billing/tasks.py:{line}]" in shown


def test_plain_prose_is_left_as_written() -> None:
    for text in (
        "Charges a captured authorization and writes a ledger row.",
        "the invoice id is the provider's idempotency key; a second capture is refused",
        "park payload; page billing-oncall after 3 parks",
        "comparing captured invoices with the provider's settlement report",
    ):
        assert redact(text, "overlays/job_policy.yaml:3") == text


def test_without_detect_secrets_the_built_in_patterns_still_withhold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The ``drafts`` extra is optional: without it the documented patterns run alone."""
    redaction._redact.cache_clear()
    monkeypatch.setattr(redaction, "_scanner", lambda: None)
    try:
        assert redaction.detector() == "built-in patterns"
        shown = redact(f"key {KEY}; token {TOKEN}", "a.py:3")
        assert KEY not in shown
        assert TOKEN not in shown
        assert shown.count("[secret withheld: ") == 2
    finally:
        redaction._redact.cache_clear()


@pytest.fixture
def leaky_shop(tmp_path: Path) -> Path:
    """The Celery example with an access key left in capture_invoice's docstring and a token in
    a signed cell, its ledger extracted again."""
    root = tmp_path / "shop"
    copy_tracked(REPO / "examples" / "celery", root)
    tasks = root / "src" / "acme_shop" / "billing" / "tasks.py"
    text = tasks.read_text("utf-8")
    tasks.write_text(
        text.replace(
            '"""Charge a captured authorization and write a ledger row."""',
            '"""Charge a captured authorization and write a ledger row.\n\n'
            f'    Provider key: {KEY}\n    """',
        ),
        "utf-8",
    )
    overlay = root / "overlays" / "job_policy.yaml"
    anchor = "      Charges a captured authorization and writes a ledger row.\n"
    overlay.write_text(
        overlay.read_text("utf-8").replace(
            anchor, anchor + f"    reconciliation: compare with the report at token={TOKEN}\n", 1
        ),
        "utf-8",
    )
    assert main(["extract", "--root", str(root)]) == 0
    return root


def test_show_text_and_json_withhold_the_docstring_and_cell_secrets(
    leaky_shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["show", JOB, "--root", str(leaky_shop)]) == 0
    text = capsys.readouterr().out
    assert main(["show", JOB, "--root", str(leaky_shop), "--json"]) == 0
    document = capsys.readouterr().out
    for out in (text, document):
        assert KEY not in out
        assert TOKEN not in out
        assert "[secret withheld: " in out
        assert "overlays/job_policy.yaml:" in out
    assert "src/acme_shop/billing/tasks.py:" in json.loads(document)["row"]["docstring"]


def test_the_runbook_and_the_verdict_withhold_them_too(
    leaky_shop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["render", "--root", str(leaky_shop), "--preview", "-o", "-"]) == 0
    page = capsys.readouterr().out
    assert (
        main(["render", "--root", str(leaky_shop), "--preview", "--format", "json", "-o", "-"]) == 0
    )
    model = capsys.readouterr().out
    main(["verdict", JOB, "--root", str(leaky_shop), "--action", "retry", "--actor", "alice"])
    card = capsys.readouterr().out
    main(["verdict", JOB, "--root", str(leaky_shop), "--action", "retry", "--actor", "a", "--json"])
    verdict = capsys.readouterr().out
    trail = (leaky_shop / ".jobledger" / "audit.ndjson").read_text("utf-8")
    for out in (page, model, card, verdict, trail):
        assert KEY not in out
        assert TOKEN not in out
    assert "secret withheld" in page  # the page writes its punctuation as inert entities
    assert "[secret withheld: " in card
