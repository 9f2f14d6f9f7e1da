"""An incremental ``sphinx-build`` sees what a fresh one sees: after a clean build of the signed
celery example, each change below makes a fresh build fail, and the incremental rebuild (same
output and doctree folders, no ``-E``) must fail the same way instead of reusing the old page."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from ._site import OVERLAY, build, copy_example

CONF = 'project = "Acme shop"\nextensions = ["pytest_jobledger.docs.sphinx"]\n'
INDEX = "Acme shop\n=========\n\n.. jobledger-runbook::\n   :root: ..\n"
ROSTER = """\
billing-oncall: {contact: "#billing", members: [dana@example.com]}
data-oncall: {contact: "#data", members: [dana@example.com]}
messaging-oncall: {contact: "#messaging", members: [dana@example.com]}
platform-oncall: {contact: "#platform", members: [dana@example.com]}
"""
NEW_JOB = '''

@app.task(queue=QUEUE)
def refund_everything(order_id: str) -> None:
    """A job nobody signed."""
'''
NEW_MODULE = '''"""A module added after the docs were built."""

from acme_shop.celery_app import app


@app.task
def brand_new(x: int) -> None:
    """A job in a file the last build never saw."""
'''


def _job_in_an_existing_file(root: Path) -> None:
    tasks = root / "src" / "acme_shop" / "billing" / "tasks.py"
    tasks.write_text(tasks.read_text("utf-8") + NEW_JOB, encoding="utf-8")


def _job_in_a_new_file(root: Path) -> None:
    (root / "src" / "acme_shop" / "billing" / "brand_new.py").write_text(NEW_MODULE, "utf-8")


def _rotation_removed_from_the_roster(root: Path) -> None:
    roster = root / "overlays" / "owners.yaml"
    roster.write_text(ROSTER.replace("data-oncall", "other-oncall"), encoding="utf-8")


def _configuration_requires_more(root: Path) -> None:
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text("utf-8")
    pyproject.write_text(
        text.replace("[tool.jobledger]\n", "[tool.jobledger]\nmax_review_age_days = 30\n", 1),
        encoding="utf-8",
    )


CHANGES: dict[str, Callable[[Path], None]] = {
    "a job added in an existing file": _job_in_an_existing_file,
    "a job added in a new file": _job_in_a_new_file,
    "a rotation removed from the roster": _rotation_removed_from_the_roster,
    "the configuration requires a review date": _configuration_requires_more,
}


def _project(root: Path) -> Path:
    copy_example(root)
    (root / "docs").mkdir()
    (root / "docs" / "conf.py").write_text(CONF, encoding="utf-8")
    (root / "docs" / "index.rst").write_text(INDEX, encoding="utf-8")
    (root / "overlays" / "owners.yaml").write_text(ROSTER, encoding="utf-8")
    pyproject = root / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text("utf-8").replace(
            f'overlay = "{OVERLAY}"\n', f'overlay = "{OVERLAY}"\nowners = "overlays/owners.yaml"\n'
        ),
        encoding="utf-8",
    )
    return root


def _sphinx(root: Path, out: str, *, fresh: bool = False) -> tuple[int, str]:
    command = ["sphinx-build", "-W", "-q", "-b", "html", "-d", f"{out}-doctrees", "docs", out]
    if fresh:
        command.insert(1, "-E")
    done = build(command, root)
    return done.returncode, done.stderr


@pytest.mark.parametrize("name", list(CHANGES))
def test_an_incremental_build_fails_like_a_fresh_one(tmp_path: Path, name: str) -> None:
    root = _project(tmp_path / "shop")
    code, stderr = _sphinx(root, "html")
    assert code == 0, stderr
    unchanged, stderr = _sphinx(root, "html")
    assert unchanged == 0, stderr
    CHANGES[name](root)
    fresh, fresh_err = _sphinx(root, "fresh", fresh=True)
    assert fresh != 0, "the change must fail a fresh build, or the test proves nothing"
    assert "jobledger: the runbook is not published" in fresh_err
    incremental, incremental_err = _sphinx(root, "html")
    assert incremental != 0, "the incremental build reused the page the change invalidates"
    assert "jobledger: the runbook is not published" in incremental_err
