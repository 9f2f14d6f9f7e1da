"""One ledger however it is made: cold, warm, serial, parallel and with ``--no-cache`` give the
same bytes on every case folder and every bundled example (tested, never timed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_jobledger.extract import cache, engine
from pytest_jobledger.project import load_config

REPO = Path(__file__).resolve().parents[2]
CASES_DIR = REPO / "tests" / "cases" / "extract"
CASES = sorted(path for path in CASES_DIR.iterdir() if (path / "expected.json").is_file())
EXAMPLES = sorted(path for path in (REPO / "examples").iterdir() if (path / "src").is_dir())
TREES = [*CASES, *EXAMPLES]
#: Starting worker processes costs about a second a tree: the examples, and the largest cases.
PARALLEL = [*EXAMPLES, CASES_DIR / "src_layout_paths_exclude", CASES_DIR / "celery_app_imported"]


def _ids(trees: list[Path]) -> list[str]:
    return [f"{path.parent.name}/{path.name}" for path in trees]


@pytest.mark.parametrize("tree", TREES, ids=_ids(TREES))
def test_cold_warm_and_no_cache_are_one_ledger(
    tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.ENV, str(tmp_path / "cache"))
    config = load_config(root=tree)
    reference = engine.extract(config.without_cache(), workers=1)
    cold = engine.extract(config, workers=1)
    warm = engine.Extractor(config, workers=1)
    assert warm.run().ledger.dumps() == cold.ledger.dumps() == reference.ledger.dumps()
    assert warm.counts.parsed == 0
    assert cold.warnings == reference.warnings


@pytest.mark.parametrize("tree", PARALLEL, ids=_ids(PARALLEL))
def test_parallel_is_the_serial_ledger(tree: Path) -> None:
    config = load_config(root=tree).without_cache()
    serial = engine.extract(config, workers=1).ledger.dumps()
    assert engine.extract(config, workers=2).ledger.dumps() == serial
