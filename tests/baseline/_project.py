"""A legacy project for the baseline's tests: the homegrown example with six failing cells."""

from __future__ import annotations

import os
from pathlib import Path

from repo_files import copy_tracked

from pytest_jobledger.cli import main

REPO = Path(__file__).resolve().parents[2]
HOMEGROWN = REPO / "examples" / "homegrown"
BASELINE = "overlays/jobledger-baseline.json"
CAPTURE = "acme.billing.tasks.capture_invoice"
RECEIPT = "acme.billing.tasks.send_receipt"


def legacy(tmp_path: Path, name: str = "acme") -> Path:
    """The homegrown example with send_receipt's entry gone (five cells unsigned) and
    capture_invoice's `idempotent` unquoted."""
    root = tmp_path / name
    copy_tracked(HOMEGROWN, root)
    overlay = root / "overlays" / "job_policy.yaml"
    text = overlay.read_text("utf-8")
    text = text[: text.index(f"  {RECEIPT}:")].replace('idempotent: "no"', "idempotent: no")
    overlay.write_text(text, encoding="utf-8")
    return root


def baseline(root: Path, *args: str) -> int:
    """``jobledger baseline`` run from the root, as a person runs it (paths are shown from the
    current folder)."""
    here = Path.cwd()
    os.chdir(root)
    try:
        return main(["baseline", "--root", str(root), *args])
    finally:
        os.chdir(here)
