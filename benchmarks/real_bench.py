"""Cold extraction beside a plain ``ast`` pass, on real code bases and a look-alike tree.

    python -u benchmarks/real_bench.py --root /tmp/trees/saleor --root /tmp/trees/netbox
    python -u benchmarks/real_bench.py --generated 1500 --repeat 3 --top 12

Each ``--root DIR`` is any folder (a fetched snapshot of an open-source application, unpacked
with ``git archive``: nothing of it is kept here); it is scanned with its own
``[tool.jobledger]`` table, or the defaults when it has none. ``--generated N`` adds the
look-alike tree of :mod:`lookalike_tree` (N modules, seeded), written into a temporary folder.

Per tree: files, candidates (files the pre-filter hands to the parser), libcst-parsed files
(every ``libcst.parse_module``, the candidates and the modules their names lead into), jobs;
then ``ast.parse`` of every file, ``jobledger extract`` cold (an empty content cache) and warm
(nothing changed), each a fresh ``python -c`` so start-up and imports count, as for a user.
The three are interleaved (ast, cold, warm, ast, cold, warm, ...) ``--repeat`` times so that a
shared machine's load falls on all of them alike; each figure is the median, with the load
average beside it. Python writes and reuses bytecode as an installed package does
(``PYTHONDONTWRITEBYTECODE`` is removed from the children's environment, as in
``startup_bench.py``: with it, every module of the tool is compiled again by every cold run).
Then where a cold run's time goes: a cProfile summary of one more cold run
(in a child), the ``--top`` functions by cumulative time.

Run it from outside a checkout (``cd /tmp``) to time another build's venv: each child is a
``python -c``, which puts the current folder first on ``sys.path``, so from a checkout the
children import that checkout's package whatever interpreter runs them.

Nothing here is asserted, and nothing runs in the test suite: read the table.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from extract_bench import BODIES, CHILD, FILES

#: ``ast.parse`` of every file; a file CPython cannot parse (newer syntax) is counted, not fatal.
BODIES = {
    **BODIES,
    "ast": FILES
    + (
        "import ast\nout = 0\nfor p in files:\n    try:\n        ast.parse(p.read_bytes())\n"
        "    except (SyntaxError, ValueError):\n        out += 1"
    ),
}

#: Own time by where it is spent: the first needle found in a function's file (or its name).
BUCKETS = [
    ("importlib", "imports"),
    ("builtins.exec", "imports"),
    ("libcst", "libcst (parse and visit)"),
    ("compile", "CPython's parser (ast)"),
    ("/ast.py", "ast walks"),
    ("extract/limits.py", "limit scanner"),
    ("extract/inert.py", "inert proof"),
    ("extract/prefilter.py", "text scan"),
    ("extract/reach.py", "text scan"),
    ("extract/walker.py", "walker"),
    ("extract/", "extraction (other)"),
    ("re/", "regular expressions"),
    ("re.Pattern", "regular expressions"),
    ("read", "reading"),
]

#: One cold run under cProfile, in a child: the counts and the top functions, as JSON.
PROFILE = """
BUCKETS = {buckets!r}
import cProfile, json, pstats, sys
from pathlib import Path
from pytest_jobledger.project import load_config
from pytest_jobledger.extract.cache import Snapshot
from pytest_jobledger.extract.engine import Extractor
config = load_config(root=Path({root!r})).without_cache()
profile = cProfile.Profile()
profile.enable()
extractor = Extractor(config, workers=1)
ledger = extractor.run().ledger
profile.disable()
stats = pstats.Stats(profile)
total = max(row[3] for row in stats.stats.values())
parses = sum(
    row[1] for key, row in stats.stats.items()
    if key[2] == "parse_module" and "libcst" in key[0]
)
buckets = {{}}
for (path, line, name), (cc, nc, tt, ct, callers) in stats.stats.items():
    bucket = "other"
    for needle, label in BUCKETS:
        if needle in (name if path == "~" else path):
            bucket = label
            break
    buckets[bucket] = buckets.get(bucket, 0.0) + tt
rows = sorted(stats.stats.items(), key=lambda item: -item[1][3])
top = []
for (path, line, name), (cc, nc, tt, ct, callers) in rows:
    if "pytest_jobledger" not in path or name in ("run", "extract"):
        continue
    where = path.split("pytest_jobledger/")[-1]
    top.append([f"{{where}}:{{line}}({{name}})", nc, round(tt, 3), round(ct, 3)])
    if len(top) == {top}:
        break
print(json.dumps({{
    "files": len(extractor.files),
    "candidates": extractor.counts.parsed + getattr(extractor.counts, "proved", 0),
    "proved": getattr(extractor.counts, "proved", 0),
    "libcst": parses,
    "jobs": len(ledger.jobs),
    "unsupported": len(ledger.unsupported),
    "profiled": round(total, 3),
    "top": top,
    "buckets": sorted(([k, round(v, 3)] for k, v in buckets.items()), key=lambda kv: -kv[1]),
}}))
"""


STEPS = (("ast", "ast.parse every file"), ("cold", "extract cold"), ("warm", "extract warm"))


def child(code: str, env: dict[str, str]) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    lines = done.stdout.strip().splitlines()
    if not lines:
        raise SystemExit(f"child failed:\n{done.stderr[-3000:]}")
    result: dict[str, object] = json.loads(lines[-1])
    return result


def timed(kind: str, env: dict[str, str], **values: object) -> tuple[float, float]:
    values.setdefault("workers", None)
    result = child(CHILD.format(body=BODIES[kind].format(**values)), env)
    return float(result["seconds"]), float(result["cpu"])  # type: ignore[arg-type]


def measure(root: Path, scratch: Path, repeat: int, top: int) -> dict[str, object]:
    cache = scratch / "cache"
    env = dict(os.environ, JOBLEDGER_CACHE_DIR=str(cache))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    ledger = scratch / "ledger.json"
    runs: dict[str, list[tuple[float, float]]] = {"ast": [], "cold": [], "warm": []}
    loads: list[float] = []
    for _ in range(repeat):
        loads.append(os.getloadavg()[0])
        runs["ast"].append(timed("ast", env, root=str(root)))
        shutil.rmtree(cache, ignore_errors=True)
        runs["cold"].append(timed("extract", env, root=str(root), ledger=str(ledger), cache=True))
        runs["warm"].append(timed("extract", env, root=str(root), ledger=str(ledger), cache=True))
        loads.append(os.getloadavg()[0])
    facts = child(PROFILE.format(root=str(root), top=top, buckets=BUCKETS), env)
    medians = {
        kind: (statistics.median(w for w, _ in rows), statistics.median(c for _, c in rows))
        for kind, rows in runs.items()
    }
    return {"medians": medians, "loads": (min(loads), max(loads)), **facts}


def report(name: str, result: dict[str, object]) -> None:
    medians: dict[str, tuple[float, float]] = result["medians"]  # type: ignore[assignment]
    ast_wall, ast_cpu = medians["ast"]
    low, high = result["loads"]  # type: ignore[misc]
    print(f"\n### {name}\n")
    print(
        f"{result['files']} files, {result['candidates']} candidates ({result['proved']} proved "
        f"inert without libcst), {result['libcst']} libcst parses, {result['jobs']} jobs, "
        f"{result['unsupported']} located problems; "
        f"load average {low:.1f} to {high:.1f}\n"
    )
    print("| step | wall s | CPU s | wall / ast | CPU / ast |")
    print("|---|---:|---:|---:|---:|")
    for kind, label in STEPS:
        wall, cpu = medians[kind]
        print(f"| {label} | {wall:.2f} | {cpu:.2f} | {wall / ast_wall:.2f} | {cpu / ast_cpu:.2f} |")
    print(f"\nwhere a cold run's time goes (cProfile, {result['profiled']} s profiled):\n")
    print("| own time in | s | share |")
    print("|---|---:|---:|")
    total = sum(seconds for _, seconds in result["buckets"]) or 1.0  # type: ignore[attr-defined]
    for label, seconds in result["buckets"]:  # type: ignore[attr-defined]
        print(f"| {label} | {seconds:.2f} | {seconds / total:.0%} |")
    print("\n| function (this package) | calls | own s | cumulative s |")
    print("|---|---:|---:|---:|")
    for where, calls, own, cumulative in result["top"]:  # type: ignore[attr-defined]
        print(f"| `{where}` | {calls} | {own} | {cumulative} |")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, action="append", default=[])
    parser.add_argument("--generated", type=int, default=0, metavar="MODULES")
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args(argv)
    nproc = os.cpu_count()
    print(f"machine: {nproc} CPUs, Python {sys.version.split()[0]}, load {os.getloadavg()}")
    summed = {"ast": [0.0, 0.0], "cold": [0.0, 0.0]}
    with tempfile.TemporaryDirectory(prefix="real-bench-") as temp:
        scratch = Path(temp)
        trees = [(root.name, root.resolve()) for root in args.root]
        if args.generated:
            from lookalike_tree import write_lookalike_tree

            generated = scratch / "lookalike"
            write_lookalike_tree(generated, args.generated, args.seed)
            trees.append((f"lookalike {args.generated}", generated))
        for number, (name, root) in enumerate(trees):
            work = scratch / f"work-{number}"
            work.mkdir()
            result = measure(root, work, args.repeat, args.top)
            report(name, result)
            medians: dict[str, tuple[float, float]] = result["medians"]  # type: ignore[assignment]
            for kind in summed:
                summed[kind][0] += medians[kind][0]
                summed[kind][1] += medians[kind][1]
    wall = summed["cold"][0] / summed["ast"][0]
    cpu = summed["cold"][1] / summed["ast"][1]
    print(f"\nsummed over the trees: cold / ast {wall:.2f} wall, {cpu:.2f} CPU")
    print(f"machine after: load {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
