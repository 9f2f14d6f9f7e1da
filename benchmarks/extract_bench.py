"""Extraction speed and memory, with the baselines that bound it and the speed goals, in one run.

    python benchmarks/extract_bench.py [--modules 10000] [--seed 8] [--items 5000]
    python benchmarks/extract_bench.py --root DIR        # any real tree (its own configuration)

Without ``--root`` it writes the synthetic tree of :mod:`repo_tree` (about 3 % of modules
register jobs across every framework, 6 % mention jobs without registering any) into a temporary
folder. Every timing is one run of a fresh process (``python -c``), so it includes what a user
waits for; the table prints seconds and each goal's ratio from the same run:

- baselines: read every file, ``ast.parse`` every file, ``libcst.parse_module`` every file, and
  the floor: read and libcst-parse only the files that hold registrations;
- ``jobledger extract``: cold (an empty cache), warm (nothing changed), warm-1 (one job file
  edited), and ``--no-cache``; peak RSS of the cold run (its worker processes included);
- the gate: ``pytest --jobledger -m jobledger`` cold and warm, beside its floor (pytest running
  as many trivial passing items as the gate has), and with ``-n 2``.

With ``--trees`` it measures per-tree goals instead, one table per tree, every tree in the
same run (``--trees real:1200,real:4000,synthetic:1200``: a shape of :mod:`repo_tree` and a
number of modules): ``ast.parse`` of every file, ``jobledger extract`` cold (serial, as the
engine decides for the tree), warm (nothing changed), parallel (cold, two workers forced) and
``--no-cache``, each with its wall and CPU seconds (the child's, its workers included) and its
ratio to ``ast.parse``; then the ratios summed over the trees, and the machine and its load.

Nothing here is asserted, and nothing runs in the test suite: read the table.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import repo_tree

#: Run in a fresh interpreter: the body, timed, and the process's peak RSS (children included).
CHILD = """
import json, resource, sys, time
def _cpu():
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
start, cpu = time.perf_counter(), _cpu()
{body}
seconds = time.perf_counter() - start
cpu = _cpu() - cpu
rss = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
          resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(json.dumps({{"seconds": seconds, "cpu": cpu, "rss_kb": rss, "out": out}}))
"""

FILES = """
from pathlib import Path
from pytest_jobledger.project import load_config
from pytest_jobledger.extract.discovery import Excludes, iter_source_files
config = load_config(root=Path({root!r}))
scan = config.extraction
excludes = Excludes(scan.all_excludes, config.root, respect_gitignore=scan.respect_gitignore)
files = [s.abs_path for s in iter_source_files(config.root, scan.paths, excludes)]
"""

BODIES = {
    "read": FILES + "out = sum(len(p.read_bytes()) for p in files)",
    # each tree is dropped before the next is made: keeping 10,000 of them costs GBs and the GC
    "ast": FILES + "import ast\nout = 0\nfor p in files:\n    ast.parse(p.read_bytes()); out += 1",
    "libcst": FILES
    + (
        "import libcst\nout = 0\n"
        "for p in files:\n"
        "    try:\n"
        "        libcst.parse_module(p.read_bytes()); out += 1\n"
        "    except Exception:\n"
        "        pass"
    ),
    "floor": (
        "import json, libcst\nfrom pathlib import Path\nroot = Path({root!r})\n"
        "ledger = json.loads(Path({ledger!r}).read_text())\n"
        "paths = sorted({{job['path'] for job in ledger['jobs']}})\n"
        "out = 0\nfor p in paths:\n    libcst.parse_module((root / p).read_bytes()); out += 1"
    ),
    "extract": (
        "from pathlib import Path\n"
        "from pytest_jobledger.project import load_config\n"
        "from pytest_jobledger.extract import extract\n"
        "config = load_config(root=Path({root!r}))\n"
        "config = config if {cache} else config.without_cache()\n"
        "ledger = extract(config, workers={workers}).ledger\n"
        "Path({ledger!r}).write_text(ledger.dumps())\n"
        "out = len(ledger.jobs)"
    ),
}


def child(kind: str, env: dict[str, str], **values: object) -> dict[str, float]:
    values.setdefault("workers", None)
    code = CHILD.format(body=BODIES[kind].format(**values))
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{kind} failed:\n{done.stderr[-3000:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def wall(command: Sequence[str], cwd: Path, env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    tail = (done.stdout.strip().splitlines() or [""])[-1]
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout[-3000:]}")
    return seconds, tail


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, help="benchmark this tree instead of a synthetic one")
    parser.add_argument("--modules", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--items", type=int, default=5000, help="trivial items of the floor")
    parser.add_argument("--no-gate", action="store_true", help="skip the pytest measurements")
    parser.add_argument(
        "--trees",
        help="the per-tree tables instead: shape:modules,... (real:1200,real:4000,synthetic:1200)",
    )
    parser.add_argument(
        "--libcst-sample",
        type=int,
        default=1,
        metavar="N",
        help="libcst-parse every N-th file and scale the time by N (it is ~10x ast.parse)",
    )
    args = parser.parse_args(argv)
    if args.trees:
        trees = [
            (shape, int(size)) for shape, size in (t.split(":") for t in args.trees.split(","))
        ]
        with tempfile.TemporaryDirectory() as folder:
            run_trees(Path(folder), trees, args.seed)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        if args.root is None:
            root = scratch / "tree"
            tree = repo_tree.write_tree(root, args.modules, args.seed)
            edit_path, edit_marker = tree.edit
            gate = not args.no_gate
        else:
            root = args.root.resolve()
            edit_path, edit_marker = "", ""
            gate = False  # a real tree's overlay is its own; the gate is timed on ours
        run(root, scratch, edit_path, edit_marker, gate, args.items, args.libcst_sample)
    return 0


def run(
    root: Path, scratch: Path, edit_path: str, marker: str, gate: bool, items: int, sample: int
) -> None:
    cache = scratch / "cache"
    env = {**os.environ, "JOBLEDGER_CACHE_DIR": str(cache), "PYTHONDONTWRITEBYTECODE": "1"}
    ledger = scratch / "ledger.json"
    rows: list[tuple[str, float, str]] = []

    def timed(name: str, kind: str, **values: object) -> dict[str, float]:
        result = child(kind, env, root=str(root), ledger=str(ledger), **values)
        rows.append((name, result["seconds"], f"{result['rss_kb'] / 1024:.0f} MB"))
        print(f"  {name}: {result['seconds']:.2f} s (load {os.getloadavg()[0]:.1f})", flush=True)
        return result

    timed("read every file", "read")
    timed("ast.parse every file", "ast")
    if sample == 1:
        timed("libcst.parse_module every file", "libcst", sample=1)
    else:
        result = child("libcst", env, root=str(root), ledger=str(ledger), sample=sample)
        name = f"libcst.parse_module every file (1 in {sample} parsed, time x {sample})"
        rows.append((name, result["seconds"] * sample, f"{result['rss_kb'] / 1024:.0f} MB"))
        print(f"  {name}: {result['seconds'] * sample:.2f} s", flush=True)
    nocache = timed("extract --no-cache", "extract", cache=False)
    cold = timed("extract cold", "extract", cache=True)
    warm = timed("extract warm", "extract", cache=True)
    warm1 = None
    if edit_path:
        path = root / edit_path
        text = path.read_text("utf-8")
        path.write_text(text.replace(marker, marker.replace("def ", "def edited_"), 1), "utf-8")
        warm1 = timed("extract warm-1 (one job file edited)", "extract", cache=True)
    floor = timed("floor: read + libcst of the registering files", "floor")
    jobs = int(cold["out"])
    ast_s = rows[1][1]
    gate_rows: dict[str, float] = {}
    if gate:
        gate_rows = measure_gate(root, scratch, env, ledger, items)
        rows += [(name, seconds, "") for name, seconds in gate_rows.items()]
    print(f"tree: {root if edit_path == '' else 'synthetic'}; {jobs} jobs; load {os.getloadavg()}")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    print("\n| step | seconds | peak RSS |\n|---|---:|---:|")
    for name, seconds, rss in rows:
        print(f"| {name} | {seconds:.2f} | {rss} |")
    print("\n| goal | ratio | target | met |\n|---|---:|---:|---|")
    goals = [
        ("cold / ast.parse", cold["seconds"] / ast_s, 0.5),
        ("warm / cold", warm["seconds"] / cold["seconds"], 0.05),
    ]
    if warm1 is not None:
        goals.append(("warm-1 / cold", warm1["seconds"] / cold["seconds"], 0.10))
    goals.append(("floor / ast.parse (for scale)", floor["seconds"] / ast_s, float("nan")))
    goals.append(("--no-cache / ast.parse (for scale)", nocache["seconds"] / ast_s, float("nan")))
    if gate_rows:
        trivial = gate_rows["pytest floor: trivial items"]
        goals.append(
            (
                "gate cold / (cold + 1.2 x floor)",
                gate_rows["gate cold"] / (cold["seconds"] + 1.2 * trivial),
                1.0,
            )
        )
        goals.append(("gate warm / floor", gate_rows["gate warm"] / trivial, 1.3))
        parallel = gate_rows["gate -n 2 cold"] / gate_rows["gate cold"]
        goals.append(("gate -n 2 / serial (cold)", parallel, 1.1))
    for name, ratio, target in goals:
        met = "" if target != target else ("yes" if ratio <= target else "no")
        shown = "" if target != target else f"{target:.2f}"
        print(f"| {name} | {ratio:.3f} | {shown} | {met} |")
    rss_mb = cold["rss_kb"] / 1024
    print(f"| peak RSS cold (MB) | {rss_mb:.0f} | 250 | {'yes' if rss_mb <= 250 else 'no'} |")


def run_trees(scratch: Path, trees: Sequence[tuple[str, int]], seed: int) -> None:
    """Issue 25's table for each tree, all measured in this one run."""
    loads: list[float] = []
    summed: dict[str, list[float]] = {}
    tables: list[str] = []
    for shape, modules in trees:
        folder = scratch / f"{shape}-{modules}"
        root = folder / "tree"
        write = repo_tree.write_real_tree if shape == "real" else repo_tree.write_tree
        written = write(root, modules, seed)
        env = {
            **os.environ,
            "JOBLEDGER_CACHE_DIR": str(folder / "cache"),
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        ledger = folder / "ledger.json"
        steps: list[tuple[str, dict[str, float]]] = []
        step = functools.partial(_step, steps, loads, env, root, ledger, f"{shape}-{modules}")
        base = step("ast.parse every file", "ast")
        step("extract cold", "extract", cache=True)
        step("extract warm (nothing changed)", "extract", cache=True)
        shutil.rmtree(folder / "cache", ignore_errors=True)
        step("extract cold, two workers", "extract", cache=True, workers=2)
        step("extract --no-cache", "extract", cache=False)
        files = sum(1 for _ in (root / "src").rglob("*.py"))
        size = sum(p.stat().st_size for p in (root / "src").rglob("*.py"))
        jobs = json.loads(ledger.read_text())["jobs"]
        lines = [
            f"### {shape}, {files:,} files ({size / 1e6:.1f} MB), {len(written.job_modules)} "
            f"register {len(jobs)} jobs",
            "",
            "| step | wall s | CPU s | wall / ast.parse | CPU / ast.parse |",
            "|---|---:|---:|---:|---:|",
        ]
        for name, result in steps:
            wall_ratio = result["seconds"] / base["seconds"]
            cpu_ratio = result["cpu"] / base["cpu"]
            summed.setdefault(name, [0.0, 0.0])
            summed[name][0] += result["seconds"]
            summed[name][1] += result["cpu"]
            lines.append(
                f"| {name} | {result['seconds']:.2f} | {result['cpu']:.2f} | "
                f"{wall_ratio:.3f} | {cpu_ratio:.3f} |"
            )
        cold, warm = steps[1][1], steps[2][1]
        lines.append(
            f"| warm / cold | | | {warm['seconds'] / cold['seconds']:.3f} | "
            f"{warm['cpu'] / cold['cpu']:.3f} |"
        )
        tables.append("\n".join(lines))
    base_wall, base_cpu = summed["ast.parse every file"]
    lines = [
        "### summed over the trees",
        "",
        "| step | wall / ast.parse | CPU / ast.parse |",
        "|---|---:|---:|",
    ]
    for name, (wall_s, cpu_s) in summed.items():
        lines.append(f"| {name} | {wall_s / base_wall:.3f} | {cpu_s / base_cpu:.3f} |")
    tables.append("\n".join(lines))
    print()
    print(
        f"Machine: {os.cpu_count()} CPUs (nproc {len(os.sched_getaffinity(0))}), Python "
        f"{sys.version.split()[0]}; load average during the run {min(loads):.1f} to "
        f"{max(loads):.1f}; seed {seed}."
    )
    print()
    print("\n\n".join(tables))


def _step(
    steps: list[tuple[str, dict[str, float]]],
    loads: list[float],
    env: dict[str, str],
    root: Path,
    ledger: Path,
    label: str,
    name: str,
    kind: str,
    **values: object,
) -> dict[str, float]:
    result = child(kind, env, root=str(root), ledger=str(ledger), **values)
    loads.append(os.getloadavg()[0])
    steps.append((name, result))
    print(
        f"  {label} {name}: {result['seconds']:.2f} s wall, {result['cpu']:.2f} s CPU "
        f"(load {loads[-1]:.1f})",
        flush=True,
    )
    return result


def measure_gate(
    root: Path, scratch: Path, env: dict[str, str], ledger: Path, items: int
) -> dict[str, float]:
    """The gate's wall times, and pytest's own on as many trivial passing items."""
    committed = root / "generated" / "job_ledger.json"
    committed.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(ledger, committed)  # the gate's freshness item must pass
    pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"]
    found: dict[str, float] = {}
    trivial = scratch / "trivial"
    trivial.mkdir()
    (trivial / "test_trivial.py").write_text(
        f"import pytest\n\n\n@pytest.mark.parametrize('n', range({items}))\n"
        "def test_ok(n):\n    pass\n"
    )
    print(f"  gate runs start (load {os.getloadavg()[0]:.1f})", flush=True)
    found["pytest floor: trivial items"], _ = wall([*pytest, "-p", "no:xdist"], trivial, env)
    gate = [*pytest, "--jobledger", "-m", "jobledger"]
    shutil.rmtree(scratch / "cache", ignore_errors=True)
    found["gate cold"], tail = wall([*gate, "-p", "no:xdist"], root, env)
    print(f"gate: {tail}")
    found["gate warm"], _ = wall([*gate, "-p", "no:xdist"], root, env)
    shutil.rmtree(scratch / "cache", ignore_errors=True)
    found["gate -n 2 cold"], tail = wall([*gate, "-n", "2"], root, env)
    print(f"gate -n 2: {tail}")
    found["pytest floor -n 2"], _ = wall([*pytest, "-n", "2"], trivial, env)
    return found


if __name__ == "__main__":
    sys.exit(main())
