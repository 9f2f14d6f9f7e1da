"""Extraction never imports, executes or evaluates the scanned tree: it may be an untrusted PR."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

from pytest_jobledger.extract import extract_ledger
from pytest_jobledger.project import load_config

HOSTILE_INIT = """\
    \"\"\"A package whose import has side effects.\"\"\"

    from pathlib import Path

    Path({marker!r}).write_text("package __init__ was imported")
    """

HOSTILE_TASKS = """\
    \"\"\"Tasks in a module that must never be imported by the extractor.\"\"\"

    import sys
    from pathlib import Path

    from celery import shared_task

    Path({marker!r}).write_text("tasks module was imported")
    sys.exit("the extractor imported tasks.py")


    @shared_task(queue="billing", max_retries=5)
    def capture_invoice(invoice_id):
        \"\"\"Charge a captured authorization.\"\"\"


    raise RuntimeError("the extractor executed tasks.py")
    """

HOSTILE_CONSTANTS = """\
    \"\"\"Constants whose module body deletes things if run.\"\"\"

    import shutil

    shutil.rmtree({victim!r})
    QUEUE = "mail"
    """

HOSTILE_MAIL = """\
    from celery import shared_task

    from jobledger_hostile_pkg.constants import QUEUE


    @shared_task(queue=QUEUE, soft_time_limit=__import__("os").system("touch {marker}"))
    def send_receipt(invoice_id):
        \"\"\"Email the receipt.\"\"\"
    """


def _write(path: Path, template: str, **values: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(template.format(**values)), encoding="utf-8")


def test_scanned_modules_are_never_imported_or_run(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    marker = tmp_path / "marker.txt"
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("still here", encoding="utf-8")
    package = root / "jobledger_hostile_pkg"
    _write(package / "__init__.py", HOSTILE_INIT, marker=str(marker))
    _write(package / "tasks.py", HOSTILE_TASKS, marker=str(marker))
    _write(package / "constants.py", HOSTILE_CONSTANTS, victim=str(victim))
    _write(package / "mail.py", HOSTILE_MAIL, marker=str(marker))
    modules_before = set(sys.modules)

    ledger = extract_ledger(load_config(root=root))

    assert not marker.exists(), marker.read_text(encoding="utf-8")
    assert (victim / "keep.txt").is_file(), "a scanned module body was executed"
    imported = {name for name in set(sys.modules) - modules_before if "hostile" in name}
    assert not imported, f"scanned modules were imported: {sorted(imported)}"
    jobs = ledger.by_id()
    assert jobs["jobledger_hostile_pkg.tasks.capture_invoice"].max_retries == 5
    receipt = jobs["jobledger_hostile_pkg.mail.send_receipt"]
    assert receipt.queue == "mail"
    assert receipt.soft_time_limit_s is None
    assert "soft_time_limit_s" in receipt.unresolved
