"""A symlink loop in the scanned tree neither hangs the run nor duplicates jobs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytest_jobledger.extract import extract_ledger
from pytest_jobledger.project import load_config

TASKS = '''"""Orders."""

from celery import shared_task


@shared_task(queue="orders")
def cancel_unpaid_order(order_id):
    """Cancel an order whose payment never arrived."""
'''


@pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="needs POSIX symlinks")
def test_symlink_loop_and_dangling_link(tmp_path: Path) -> None:
    shop = tmp_path / "shop"
    shop.mkdir()
    (shop / "__init__.py").write_text("", encoding="utf-8")
    (shop / "tasks.py").write_text(TASKS, encoding="utf-8")
    (shop / "again").symlink_to(shop, target_is_directory=True)
    (shop / "up").symlink_to(tmp_path, target_is_directory=True)
    (shop / "gone.py").symlink_to(tmp_path / "does_not_exist.py")

    ledger = extract_ledger(load_config(root=tmp_path))

    assert [job.id for job in ledger.jobs] == ["shop.tasks.cancel_unpaid_order"]
    assert ledger.jobs[0].path == "shop/tasks.py"
