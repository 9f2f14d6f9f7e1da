"""The secret screen: a request that looks like it holds a secret is never sent."""

from __future__ import annotations

import builtins
from typing import Any

import pytest

from pytest_jobledger.draft.request import DraftRequest
from pytest_jobledger.draft.screen import DetectorMissing, Screen


def request(docstring: str) -> DraftRequest:
    return DraftRequest("acme.jobs.sync", "sync", "acme.jobs", "default", docstring)


SECRETS = {
    "aws key": ("Uses AKIAIOSFODNN7EXAMPLE to upload.", "detect-secrets: AWS Access Key"),
    "private key": ("-----BEGIN RSA PRIVATE KEY-----", "detect-secrets: Private Key"),
    "github token": ("token ghp_1234567890abcdefghijklmnopqrstuvwxyzAB", "detect-secrets"),
    "keyword": ('Connects with password = "hunter2hunter2".', "detect-secrets: Secret Keyword"),
    "basic auth url": ("Posts to https://admin:s3cret@api.example.com/hook", "detect-secrets"),
    "e-mail": (
        "Sends the report to finance.lead@acme-corp.example.com nightly.",
        "an e-mail address",
    ),
    "json payload": ('Payload: {"customer_id": 1234, "card": "4242"}', "a payload sample"),
    "dict payload": ("Called with {'invoice': 'INV-1', 'amount': 12}", "a payload sample"),
    "hex token": ("Signs with d41d8cd98f00b204e9800998ecf8427e00ff.", "a long token"),
    "base64 token": ("Header X-Auth: QWxhZGRpbjpvcGVuIHNlc2FtZQ9xYzJ3TmVhcg", "a long token"),
    "token assignment": ("Set token=abcd1234 before running.", "a value assigned to 'token'"),
    "key assignment": ("api_key: live-4242-4242 is read from the vault", "assigned to 'api_key'"),
}
CLEAN = [
    "Charge a captured authorization and write a ledger row.",
    "Recompute the cache key for every product_variant_identifier_with_a_long_name.",
    "Deletes sessions that expired more than a day ago; see https://wiki.example.com/sessions.",
    None,
]


@pytest.fixture(scope="module")
def screen() -> Any:
    with Screen() as opened:
        yield opened


@pytest.mark.parametrize(("docstring", "says"), SECRETS.values(), ids=list(SECRETS))
def test_a_docstring_that_looks_secret_is_not_sent(
    screen: Screen, docstring: str, says: str
) -> None:
    reason = screen.reason(request(docstring))
    assert reason is not None
    assert reason.startswith("its docstring looks like it holds ")
    assert any(says in found for found in screen.findings(docstring))


def test_the_reason_never_repeats_the_secret(screen: Screen) -> None:
    reason = screen.reason(request('password = "hunter2hunter2"'))
    assert reason is not None
    assert "hunter2" not in reason


@pytest.mark.parametrize("docstring", CLEAN)
def test_ordinary_docstrings_are_sent(screen: Screen, docstring: str | None) -> None:
    assert screen.reason(request(docstring)) is None  # type: ignore[arg-type]


def test_every_field_is_screened(screen: Screen) -> None:
    odd = DraftRequest("ops.notify", "notify", "ops", "ops@acme.example.com", "Pages the owner.")
    assert screen.reason(odd) == "its queue looks like it holds an e-mail address"


def test_without_the_detector_nothing_is_screened_so_nothing_is_sent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = builtins.__import__

    def no_detect_secrets(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("detect_secrets"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_detect_secrets)
    with pytest.raises(DetectorMissing) as info:
        Screen()
    assert "pip install 'pytest-jobledger[drafts]'" in str(info.value)
