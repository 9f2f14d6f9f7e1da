"""On a small tree shaped like a real application (``benchmarks/repo_tree.py --shape real``): one
ledger however it is made (whole files parsed, cold, warm, two workers, ``--no-cache``), and a
warm ``jobledger extract`` that imports no libcst (tested, never timed)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from pytest_jobledger.extract import cache, engine, loading
from pytest_jobledger.project import load_config

REPO = Path(__file__).resolve().parents[2]


def _repo_tree() -> ModuleType:
    spec = importlib.util.spec_from_file_location("repo_tree", REPO / "benchmarks" / "repo_tree.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("repo_tree", module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("real") / "tree"
    written = _repo_tree().write_real_tree(root, modules=140, seed=25)
    assert written.job_modules
    assert written.mention_modules
    return root


def test_every_way_gives_one_ledger(
    tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.ENV, str(tmp_path / "cache"))
    config = load_config(root=tree)
    no_cache = config.without_cache()
    reduced: list[str] = []
    reduce_source = loading.reduce_source

    def counting(*args: object, **kwargs: object) -> object:
        found = reduce_source(*args, **kwargs)  # type: ignore[arg-type]
        if found is not None:
            reduced.append("x")
        return found

    monkeypatch.setattr(loading, "reduce_source", counting)
    cold = engine.extract(config, workers=1).ledger.dumps()
    assert reduced, "no candidate file was reduced: the tree is not shaped as intended"
    warm = engine.Extractor(config, workers=1)
    assert warm.run().ledger.dumps() == cold
    assert warm.counts.parsed == 0
    assert engine.extract(no_cache, workers=1).ledger.dumps() == cold
    assert engine.extract(no_cache, workers=2).ledger.dumps() == cold
    monkeypatch.setattr(loading, "reduce_source", lambda *args, **kwargs: None)
    whole = engine.extract(no_cache, workers=1).ledger.dumps()
    assert whole == cold
    assert json.loads(cold)["jobs"]


#: Runs the command line in-process, then prints the modules it imported.
DRIVER = """
import json, sys
from pytest_jobledger.cli import main
code = main(["extract"])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def test_a_warm_extract_imports_no_libcst(tree: Path, tmp_path: Path) -> None:
    env = {**os.environ, cache.ENV: str(tmp_path / "cache")}

    def run() -> dict[str, object]:
        done = subprocess.run(
            [sys.executable, "-c", DRIVER],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
        return result

    cold = run()
    assert "libcst" in cold["modules"]  # type: ignore[operator]
    warm = run()
    assert warm["code"] == cold["code"]
    assert "libcst" not in warm["modules"]  # type: ignore[operator]
