"""The advisory lock: a waiter with a timeout gives up with a clear error instead of hanging."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_jobledger.core.atomic import LockTimeout, locked


def test_a_held_lock_times_out_for_a_second_holder(tmp_path: Path) -> None:
    target = tmp_path / "state" / "file.json"
    # flock locks belong to an open file, so a second open in this process contends too.
    with (
        locked(target, root=tmp_path),
        pytest.raises(LockTimeout, match="held the lock"),
        locked(target, root=tmp_path, timeout=0.05),
    ):
        pass  # pragma: no cover - never reached


def test_a_free_lock_is_taken_at_once_with_a_timeout(tmp_path: Path) -> None:
    target = tmp_path / "file.json"
    with locked(target, root=tmp_path, timeout=0):
        pass
    with locked(target, root=tmp_path, timeout=0):
        pass


def test_the_timeout_is_an_os_error_callers_already_handle(tmp_path: Path) -> None:
    assert issubclass(LockTimeout, OSError)
