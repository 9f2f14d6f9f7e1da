"""Where people wait at a prompt: each command's start, side by side with ``python -c pass``.

    python benchmarks/startup_bench.py [--example celery] [--repeat 5] [--gate] [--before SRC]

Copies ``examples/EXAMPLE`` into a temporary folder, runs ``jobledger extract`` once (so every
step below runs on a warm cache), then times each command as a fresh process, as a user waits for
it: ``--help``, ``--version``, ``list``, ``show``, ``verdict`` and ``audit --verify``, all of
them once per round (interleaved), ``--repeat`` rounds. Each step's
median of ``--repeat`` runs, in wall and CPU seconds (the child's user + system time: a shared
machine's load inflates the wall time, not this), and its ratio to ``python -c pass`` from the
same run, with the target (3x for ``--help``/``--version``, 6x for the rest).
The last column names the heavy libraries the command imported (from ``python -X importtime``).
Each command runs twice first (the warm-up, untimed): the first run records the read-only
commands' memos (``pytest_jobledger/memo/``), so the table shows the answer on an unchanged tree.

``--before SRC`` times another checkout of the tool in the same rounds (``SRC`` holds its
``pytest_jobledger`` folder, for example ``git archive main pytest_jobledger | tar -x -C SRC``;
it runs as ``PYTHONPATH=SRC python -m pytest_jobledger``), and adds its ratios as columns, so
before and after share one machine and one load.

Python writes and reuses bytecode as an installed package does: ``PYTHONDONTWRITEBYTECODE`` is
removed from the children's environment (with it, every module of the tool is compiled on every
start, about twice this package's import time; ``--as-is`` keeps the caller's environment).

One run on ``examples/celery`` after the read-only commands' memos (2 CPUs, load average 1.4
falling to 1.3, Python 3.11.7; medians of 5 interleaved rounds; ``python -c pass`` 0.042 s
wall, 0.041 s CPU; "before" is main at 369e2c4 in the same rounds)::

    command          wall ratio  CPU ratio  before: wall ratio  before: CPU ratio  target
    --help                  1.7        1.7                 1.8                1.8     ≤ 3
    --version               1.6        1.6                 1.7                1.8     ≤ 3
    list                    6.0        6.1                19.9               20.2     ≤ 6
    show JOB                5.9        6.0                17.9               18.2     ≤ 6
    verdict JOB             7.1        7.1                18.2               18.4     ≤ 6
    audit --verify          4.0        4.1                 4.1                4.1     ≤ 6

``--gate`` adds the xdist question: ``pytest --jobledger -m jobledger`` serially and with
``-n 2`` beside pytest on as many trivial passing items, serially and with ``-n 2``; what the gate
adds under xdist should be no more than what it adds serially.

Nothing here is asserted, and nothing runs in the test suite: read the table.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
HEAVY = ("libcst", "jsonschema", "ruamel.yaml", "yaml", "pathspec", "sqlite3", "detect_secrets")

#: A job of each example, for ``show`` and ``verdict``.
JOBS = {
    "celery": "acme_shop.billing.tasks.capture_invoice",
}


def _env(cache: Path, *, as_is: bool = False) -> dict[str, str]:
    env = dict(os.environ)
    env["JOBLEDGER_CACHE_DIR"] = str(cache)
    env.pop("PYTEST_ADDOPTS", None)
    if not as_is:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _before(env: dict[str, str], source: Path) -> dict[str, str]:
    """The environment that runs the checkout at ``source`` instead of this one."""
    return {**env, "PYTHONPATH": str(source.resolve())}


def timed(
    command: Sequence[str], cwd: Path, env: dict[str, str] | None = None
) -> tuple[float, float, int]:
    """Wall and CPU seconds of one fresh process, and its exit code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(list(command), cwd=cwd, env=env, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, done.returncode


def median_runs(
    commands: Sequence[tuple[Sequence[str], dict[str, str]]], cwd: Path, repeat: int
) -> list[tuple[float, float, int]]:
    """Each command's median wall and CPU seconds over ``repeat`` rounds, the commands
    interleaved within a round (so a shared machine's load falls on all of them alike)."""
    runs: list[list[tuple[float, float, int]]] = [[] for _ in commands]
    for _ in range(repeat):
        for index, (command, env) in enumerate(commands):
            runs[index].append(timed(command, cwd, env))
    return [
        (
            statistics.median(wall for wall, _, _ in rows),
            statistics.median(cpu for _, cpu, _ in rows),
            rows[-1][2],
        )
        for rows in runs
    ]


def best(command: Sequence[str], cwd: Path, env: dict[str, str], repeat: int) -> tuple[float, ...]:
    """The least disturbed of ``repeat`` runs: the lowest wall time, with that run's CPU."""
    return min((timed(command, cwd, env) for _ in range(repeat)), key=lambda run: run[0])


def heavy_imports(args: Sequence[str], cwd: Path, env: dict[str, str]) -> str:
    """The heavy libraries ``jobledger ARGS`` imported, each with its cumulative import time,
    then every import's own time summed, and this package's modules' share of it."""
    command = [sys.executable, "-X", "importtime", "-m", "pytest_jobledger", *args]
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    found = []
    total = own = 0
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if len(parts) != 3 or not parts[0].strip().split(":")[-1].strip().isdigit():
            continue
        name, self_us = parts[2].strip(), int(parts[0].split(":")[-1])
        total += self_us
        own += self_us if name.startswith("pytest_jobledger") else 0
        if name in HEAVY:
            found.append(f"{name} {int(parts[1]) / 1000:.0f} ms")
    found.append(f"all imports {total / 1000:.0f} ms, of which this package {own / 1000:.0f} ms")
    return ", ".join(found)


def machine() -> str:
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    return f"{os.cpu_count()} CPUs (nproc), load average {load}, Python {sys.version.split()[0]}"


def startup(
    root: Path, env: dict[str, str], job: str, repeat: int, before: Path | None = None
) -> None:
    jl = [sys.executable, "-m", "pytest_jobledger"]
    steps: list[tuple[str, list[str], int]] = [
        ("--help", ["--help"], 3),
        ("--version", ["--version"], 3),
        ("list", ["list"], 6),
        ("show", ["show", job], 6),
        ("verdict", ["verdict", job, "--action", "retry"], 6),
        ("audit --verify", ["audit", "--verify"], 6),
    ]
    envs = [env] if before is None else [env, _before(env, before)]
    for step_env in envs:  # the warm-up: bytecode, and the memos an unchanged tree answers from
        for _, args, _ in steps:
            for _ in range(2):
                timed([*jl, *args], root, step_env)
    commands = [([sys.executable, "-c", "pass"], env)]
    commands += [([*jl, *args], step_env) for step_env in envs for _, args, _ in steps]
    (base_wall, base_cpu, _), *medians = median_runs(commands, root, repeat)
    print(
        f"\n`python -c pass`: {base_wall:.3f} s wall, {base_cpu:.3f} s CPU (median of {repeat}, "
        "every command interleaved in each round)\n"
    )
    after = medians[: len(steps)]
    earlier = medians[len(steps) :] if before is not None else [None] * len(steps)
    head = "| command | wall s | CPU s | wall ratio | CPU ratio | target | met |"
    rule = "|---|---:|---:|---:|---:|---:|---|"
    if before is not None:
        head += " before: wall s | before: wall ratio | before: CPU ratio |"
        rule += "---:|---:|---:|"
    print(f"{head} heavy imports |\n{rule}---|")
    for (name, args, target), (wall, cpu, code), old in zip(steps, after, earlier, strict=True):
        ratio, cpu_ratio = wall / base_wall, cpu / max(base_cpu, 1e-3)
        met = "yes" if ratio <= target else "no"
        heavy = heavy_imports(args, root, env)
        row = (
            f"| `jobledger {name}` (exit {code}) | {wall:.3f} | {cpu:.3f} | {ratio:.1f} | "
            f"{cpu_ratio:.1f} | ≤ {target} | {met} |"
        )
        if old is not None:
            old_cpu = old[1] / max(base_cpu, 1e-3)
            row += f" {old[0]:.3f} | {old[0] / base_wall:.1f} | {old_cpu:.1f} |"
        print(f"{row} {heavy} |")


TRIVIAL = """\
import pytest


@pytest.mark.parametrize("n", range({count}))
def test_t(n):
    pass
"""


def gate(root: Path, env: dict[str, str], scratch: Path, repeat: int) -> None:
    """The gate's overhead over pytest, serially and with ``-n 2``."""
    pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    collected = subprocess.run(
        [*pytest, "--jobledger", "-m", "jobledger", "--collect-only"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    count = sum("::" in line for line in collected.stdout.splitlines())
    trivial = scratch / "trivial"
    trivial.mkdir()
    (trivial / "pytest.ini").write_text("[pytest]\n")
    (trivial / "test_trivial.py").write_text(TRIVIAL.format(count=count))
    rows = [
        ("pytest, trivial items", trivial, [*pytest]),
        ("pytest --jobledger -m jobledger", root, [*pytest, "--jobledger", "-m", "jobledger"]),
        ("pytest -n 2, trivial items", trivial, [*pytest, "-n", "2"]),
        (
            "pytest --jobledger -m jobledger -n 2",
            root,
            [*pytest, "--jobledger", "-m", "jobledger", "-n", "2"],
        ),
    ]
    print(f"\nThe gate has {count} items; the trivial suite as many passing ones.\n")
    print("| run | wall s | CPU s | exit |\n|---|---:|---:|---:|")
    found = {}
    for name, cwd, command in rows:
        wall, cpu, code = best(command, cwd, env, repeat)
        found[name] = wall
        print(f"| {name} | {wall:.2f} | {cpu:.2f} | {code} |")
    serial = found["pytest --jobledger -m jobledger"] - found["pytest, trivial items"]
    parallel = found["pytest --jobledger -m jobledger -n 2"] - found["pytest -n 2, trivial items"]
    met = "yes" if parallel <= serial else "no"
    print(
        f"\nThe gate adds {serial:.2f} s serially and {parallel:.2f} s under `-n 2` "
        f"(goal: no more under xdist; met: {met})."
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--example", default="celery", choices=sorted(JOBS))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--gate", action="store_true", help="also the xdist overhead table")
    parser.add_argument(
        "--before", type=Path, metavar="SRC", help="also time the checkout whose package is in SRC"
    )
    parser.add_argument(
        "--as-is", action="store_true", help="keep PYTHONDONTWRITEBYTECODE if it is set"
    )
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="startup-bench-"))
    try:
        root = Path(shutil.copytree(EXAMPLES / args.example, scratch / args.example))
        env = _env(scratch / "cache", as_is=args.as_is)
        extract = [sys.executable, "-m", "pytest_jobledger", "extract"]
        subprocess.run(extract, cwd=root, env=env, capture_output=True, check=True)
        print(f"machine: {machine()}")
        bytecode = "not written" if env.get("PYTHONDONTWRITEBYTECODE") else "written and reused"
        print(f"example: examples/{args.example}, warm cache, bytecode {bytecode}")
        if args.before is not None:
            print(f"before: PYTHONPATH={args.before.resolve()}")
        startup(root, env, JOBS[args.example], args.repeat, args.before)
        if args.gate:
            gate(root, env, scratch, max(1, args.repeat // 2))
        print(f"\nmachine after: {machine()}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
