"""The docs builders' model is ``jobledger render --format json``'s, and their refusal lists what
``jobledger check`` prints."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from pytest_jobledger.core.errors import ConfigError
from pytest_jobledger.docs.model import runbook_for

from ._site import BIN, HOSTILE_JOB, OVERLAY, REPO, copy_example, unsign


def _jobledger(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "jobledger"), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


def test_the_published_model_is_renders_json() -> None:
    root = REPO / "examples" / "celery"
    docs = runbook_for(root)
    assert docs.book is not None
    assert docs.blocking == ()
    rendered = _jobledger("render", "--root", str(root), "--format", "json", "-o", "-")
    assert rendered.returncode == 0, rendered.stderr
    assert docs.book.dumps() == rendered.stdout


def test_a_refusal_names_what_check_prints_and_a_preview_is_renders(tmp_path: Path) -> None:
    root = copy_example(tmp_path)
    line = unsign(root)
    (root / "overlays" / "purpose_drafts.yaml").unlink()  # render's preview would show it
    refused = runbook_for(root)
    assert refused.book is None
    assert len(refused.blocking) == 1
    assert refused.blocking[0].startswith(f"{OVERLAY}:{line}: {HOSTILE_JOB}::paging_owner")
    check = _jobledger("check", "--root", str(root), cwd=root)  # paths: from the current folder
    assert check.returncode == 1
    # The refusal names the finding as check's line does (check prints the short form of the
    # message after the kind; the refusal the whole message).
    named = refused.blocking[0].split(" [unsigned] ", 1)[0] + " [unsigned] "
    assert any(line.startswith(named) for line in check.stdout.splitlines())
    preview = runbook_for(root, preview=True)
    assert preview.blocking == refused.blocking
    assert preview.book is not None
    rendered = _jobledger("render", "--root", str(root), "--preview", "--format", "json", "-o", "-")
    assert preview.book.dumps() == rendered.stdout


def test_group_by_is_checked_like_the_configuration() -> None:
    with pytest.raises(ConfigError, match="group-by is 'team'; use one of queue, module"):
        runbook_for(REPO / "examples" / "celery", group_by="team")
    grouped = runbook_for(REPO / "examples" / "celery", group_by="owner")
    assert grouped.book is not None
    assert grouped.book.group_by == "owner"


def test_a_blocking_line_never_starts_a_workflow_command(tmp_path: Path) -> None:
    """A build log is read by CI runners: a file a pull request named `::notice ...` is printed
    as ``./::notice ...``, as ``jobledger check`` prints it."""
    root = copy_example(tmp_path)
    pyproject = root / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text("utf-8").replace('paths = ["src"]', 'paths = ["."]'), encoding="utf-8"
    )
    (root / "::notice title=jobledger::All cells signed.py").write_text(
        "from celery import shared_task\n\n\n@shared_task\ndef forged(x):\n    return x\n",
        encoding="utf-8",
    )
    refused = runbook_for(root)
    assert refused.book is None
    assert any(line.startswith("./::notice title=jobledger::") for line in refused.blocking)
    assert not [line for line in refused.blocking if line.lstrip().startswith("::")]
