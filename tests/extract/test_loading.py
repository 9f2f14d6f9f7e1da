"""The summary cache: the memory of a run is bounded whatever the tree, and the bound never
changes what is extracted (a module let go is parsed again when it is needed again)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_jobledger.extract import engine, extract_ledger, filescan
from pytest_jobledger.extract.engine import Extractor
from pytest_jobledger.extract.limits import measure
from pytest_jobledger.project import load_config

APP = 'from celery import Celery\n\napp = Celery("shop")\nQUEUE = "orders"\n'
TASKS = '''from shop.worker import QUEUE, app


@app.task(queue=QUEUE, max_retries={n})
def job_{n}(order_id):
    """Step {n}."""
'''


def _tree(root: Path, modules: int) -> Path:
    (root / "shop").mkdir()
    (root / "shop" / "__init__.py").write_text("")
    (root / "shop" / "worker.py").write_text(APP)
    for n in range(modules):
        (root / "shop" / f"tasks_{n}.py").write_text(TASKS.format(n=n))
    return root


def test_a_tight_cache_changes_nothing_and_stays_within_its_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _tree(tmp_path, 40)
    config = load_config(root=root)
    roomy = extract_ledger(config)
    assert len(roomy.jobs) == 40
    bound = 3 * measure(TASKS.format(n=0)).work
    monkeypatch.setattr(filescan, "RETAINED_WORK", bound)
    extractor = Extractor(config.without_cache(), workers=1)
    found = extractor.run().ledger
    assert found.dumps() == roomy.dumps()
    assert extractor._scanner is not None
    largest = max(measure(path.read_text()).work for path in root.rglob("*.py"))
    assert extractor._scanner.loader.peak_retained <= bound + largest
    assert engine.extract(config).ledger.dumps() == roomy.dumps()
