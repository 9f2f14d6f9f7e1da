"""Approvers from the base: on a pull request's checkout that adds a key to allowed_signers or a
member to the roster, ``verdict --approval --base REF`` (and, in CI, the pull request's target by
default) reads both as committed at the base, so the added approver approves nothing, and a
warning names what the checkout added. Real ssh-keygen keys, a real git repository."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from .test_approvals import (  # noqa: F401 - the fixtures, shared with the approvals table
    TABLE,
    Keys,
    keys,
    planned,
    shop,
    verdict,
)

pytestmark = pytest.mark.usefixtures("keys")
ROSTER = "overlays/owners.yaml"
SIGNERS = "overlays/allowed_signers"


def _git(root: Path, *args: str) -> None:
    identity = ["-c", "user.name=base", "-c", "user.email=base@example.com"]
    subprocess.run(["git", *identity, *args], cwd=root, check=True, capture_output=True, timeout=60)


@pytest.fixture
def repo(shop: Path) -> Path:  # noqa: F811 - the imported fixture, used
    """The signed shop committed as the base (``main``, and ``origin/main`` as CI fetches it)."""
    _git(shop, "init", "-q", "-b", "main")
    _git(shop, "add", "-A")
    _git(shop, "commit", "-q", "-m", "base")
    _git(shop, "update-ref", "refs/remotes/origin/main", "HEAD")
    return shop


def _adds(root: Path, keys: Keys, *, key: str | None = None, member: str | None = None) -> None:  # noqa: F811
    """What the pull request changes in the checkout (not committed, as on a PR's checkout)."""
    if key is not None:
        with (root / SIGNERS).open("a") as handle:
            handle.write(f"{key}@example.com {keys.public(key)}\n")
    if member is not None:
        roster = root / ROSTER
        roster.write_text(
            roster.read_text().replace(
                "members: [dana@example.com]", f"members: [dana@example.com, {member}@example.com]"
            )
        )


def _ask(root: Path, signature: Path, capsys: Any, *extra: str) -> tuple[dict[str, Any], str]:
    capsys.readouterr()
    verdict(root, TABLE["base"], "--approval", str(signature), "--json", *extra)
    out, err = capsys.readouterr()
    return json.loads(out), err


def _blockers(shown: dict[str, Any]) -> list[str]:
    return [reason["name"] for reason in shown["blockers"]]


def test_the_checkout_alone_trusts_what_the_pull_request_added(
    repo: Path,
    keys: Keys,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The control: without a base, the key and member the pull request added approve."""
    _adds(repo, keys, key="mallory", member="mallory")
    shown, _ = _ask(repo, planned(repo, keys, TABLE["base"], "mallory"), capsys)
    assert shown["verdict"] == "approved"


def test_with_a_base_the_added_key_and_member_approve_nothing(
    repo: Path,
    keys: Keys,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    _adds(repo, keys, key="mallory", member="mallory")
    signature = planned(repo, keys, TABLE["base"], "mallory")
    shown, err = _ask(repo, signature, capsys, "--base", "main")
    assert shown["verdict"] == "blocked"
    assert _blockers(shown) == ["approval-refused:signature"]
    assert f"{SIGNERS}: this checkout adds 1 key(s) that main does not have" in err
    assert f"mallory@example.com {keys.public('mallory')}" in err
    assert f"{ROSTER}: this checkout adds 1 member(s)" in err
    assert "mallory@example.com in billing-oncall" in err


def test_in_ci_the_pull_requests_target_is_the_default_base(
    repo: Path,
    keys: Keys,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CI", "true")
    monkeypatch.setenv("GITHUB_BASE_REF", "main")
    _adds(repo, keys, key="mallory", member="mallory")
    shown, err = _ask(repo, planned(repo, keys, TABLE["base"], "mallory"), capsys)
    assert _blockers(shown) == ["approval-refused:signature"]
    assert "that origin/main does not have" in err


def test_a_member_added_to_the_rotation_is_not_one_at_the_base(
    repo: Path,
    keys: Keys,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """eve's key is allowed at the base; the pull request makes her a billing-oncall member."""
    _adds(repo, keys, member="eve")
    shown, err = _ask(repo, planned(repo, keys, TABLE["base"], "eve"), capsys, "--base", "main")
    assert _blockers(shown) == ["approval-refused:rotation"]
    assert "eve@example.com in billing-oncall" in err
    assert "adds 1 key(s)" not in err


def test_an_unchanged_checkout_approves_with_a_base_and_warns_of_nothing(
    repo: Path,
    keys: Keys,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    shown, err = _ask(repo, planned(repo, keys, TABLE["base"]), capsys, "--base", "main")
    assert shown["verdict"] == "approved"
    assert "warning" not in err


def test_a_base_that_cannot_be_read_means_no_verdict(
    repo: Path,
    keys: Keys,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    signature = planned(repo, keys, TABLE["base"])
    capsys.readouterr()
    code = verdict(repo, TABLE["base"], "--approval", str(signature), "--base", "no-such-ref")
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert "the approvers are read at the base no-such-ref, and it cannot be read" in err
