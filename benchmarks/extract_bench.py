"""Extraction speed and memory, side by side with the baselines that bound it, in one run.

    python benchmarks/extract_bench.py [--modules 2000] [--job-every 10] [--repeat 3]

It writes a synthetic src-layout tree (a Celery app, ``--modules`` modules of ordinary helper
code, every ``--job-every``-th one registering five tasks) into a temporary folder and times:

- ``jobledger extract``: the real extraction (text filter, libcst parse, statement walk);
- ``libcst parse only``: ``libcst.parse_module`` of the same files that extraction parses
  (the floor for any libcst-based extractor);
- ``libcst visitor + positions``: the naive design (a ``CSTVisitor`` with ``PositionProvider``
  over every file), which this project deliberately avoids;
- ``ast parse only``: CPython's C parser on the same files, for scale.

Ratios are against ``jobledger extract``. Peak memory is measured with tracemalloc in a separate
pass so it does not distort the timings. Nothing here is asserted: read the table.
"""

from __future__ import annotations

import argparse
import ast
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from pytest_jobledger.config import load_config
from pytest_jobledger.extract import extract_ledger
from pytest_jobledger.extract.engine import trigger_pattern

HELPER = '''
def helper_{i}(value, factor=2):
    """Scale a value; ordinary code the extractor must skip quickly."""
    items = [value * factor for _ in range(10)]
    return {{"items": items, "label": str(value)}}
'''

JOB = '''
@app.task(queue=QUEUE, max_retries={k}, soft_time_limit=60 * {k})
def job_{k}(order_id):
    """Process order step {k}."""
    return order_id
'''


def write_tree(root: Path, modules: int, job_every: int) -> None:
    package = root / "src" / "shop"
    package.mkdir(parents=True)
    (root / "pyproject.toml").write_text('[tool.jobledger]\npaths = ["src"]\n')
    (package / "__init__.py").write_text("")
    (package / "worker.py").write_text("from celery import Celery\n\napp = Celery('shop')\n")
    helpers = "".join(HELPER.format(i=i) for i in range(40))
    for index in range(modules):
        folder = package / f"area{index // 50}"
        folder.mkdir(exist_ok=True)
        (folder / "__init__.py").write_text("")
        body = "import os\n" + helpers
        if index % job_every == 0:
            header = 'from shop.worker import app\n\nQUEUE = "orders"\n'
            body = header + body + "".join(JOB.format(k=k) for k in range(5))
        (folder / f"module{index}.py").write_text(body)


class _Visitor(cst.CSTVisitor):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def visit_Decorator(self, node: cst.Decorator) -> None:
        self.get_metadata(PositionProvider, node)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--modules", type=int, default=2000)
    parser.add_argument("--job-every", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        write_tree(root, args.modules, args.job_every)
        config = load_config(root=root)
        files = sorted((root / "src").rglob("*.py"))
        trigger = trigger_pattern(config)
        parsed = [f.read_bytes() for f in files if trigger.search(f.read_bytes())]
        size = sum(f.stat().st_size for f in files)

        def extract() -> object:
            return extract_ledger(config)

        def libcst_parse() -> object:
            return [cst.parse_module(data) for data in parsed]

        def libcst_visitor() -> object:
            for data in parsed:
                MetadataWrapper(cst.parse_module(data)).visit(_Visitor())
            return None

        def ast_parse() -> object:
            return [ast.parse(data) for data in parsed]

        jobs = len(extract_ledger(config).jobs)
        print(
            f"tree: {len(files)} files, {size / 1e6:.1f} MB; {len(parsed)} contain a trigger "
            f"word and are parsed; {jobs} jobs"
        )
        print(f"python {sys.version.split()[0]}, libcst {_version('libcst')}")
        runs: list[tuple[str, Callable[[], object]]] = [
            ("jobledger extract", extract),
            ("libcst parse only", libcst_parse),
            ("libcst visitor + positions", libcst_visitor),
            ("ast parse only", ast_parse),
        ]
        results = [(name, _best(fn, args.repeat), _peak(fn)) for name, fn in runs]
        base = results[0][1]
        print(f"\n{'':28} {'best of ' + str(args.repeat):>12} {'ratio':>7} {'peak MB':>9}")
        for name, seconds, peak in results:
            print(f"{name:28} {seconds:11.2f}s {seconds / base:7.2f} {peak / 1e6:9.1f}")
    return 0


def _best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times) if times else statistics.mean(times)


def _peak(fn: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _version(name: str) -> str:
    from importlib.metadata import version

    return version(name)


if __name__ == "__main__":
    sys.exit(main())
