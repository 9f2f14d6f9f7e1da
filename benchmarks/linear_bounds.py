"""Issue 19's linear bounds: the same hostile inputs extracted by two checkouts, side by side.

    python benchmarks/linear_bounds.py --before /path/to/old/checkout [--after .] [--cpu-limit 300]

Each input is a small project written to a temporary folder; each checkout extracts it in its own
child process (``python -m pytest_jobledger extract --no-cache``, run from that checkout with
``PYTHONPATH`` set to it), and the CPU time, the exit status and what the ledger holds are
printed, with the ratio before / after. A run past ``--cpu-limit`` CPU seconds is stopped by
that limit (``RLIMIT_CPU``), so its figure and ratio are lower bounds (``> ...``).

Inputs:

- ``chain-1000``, ``chain-2300``: one module binding ``a0 = app.task(...)`` and a chain of 1,000
  or 2,300 plain aliases (12 KB, 30 KB), the job decorated with the last one;
- ``modules-300``: 300 modules, each re-importing the previous one's alias under a new name;
- ``exclude-40k``: 40,000 configured exclude patterns (one per generated file name), 200 modules;
- ``gitignore-4x1M``: ``respect_gitignore`` and a 1 MiB ``.gitignore`` in each of 4 nested
  package folders.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

Files = dict[str, str]
TASK = "from celery import shared_task\n\n\n@shared_task\ndef f():\n    pass\n"


def chain(n: int) -> Files:
    lines = "\n".join(f"a{i} = a{i - 1}" for i in range(1, n))
    text = (
        "from celery import Celery\napp = Celery('x')\na0 = app.task(queue=\"billing\")\n"
        f"{lines}\n\n@a{n - 1}\ndef wire():\n    pass\n"
    )
    return {"pkg/__init__.py": "", "pkg/tasks.py": text}


def modules(n: int) -> Files:
    files = {
        "pkg/__init__.py": "",
        "pkg/m0.py": "from celery import Celery\napp = Celery('x')\nt0 = app.task()\n",
        "pkg/tasks.py": f"from .m{n - 1} import t{n - 1} as wire\n\n\n@wire\ndef f():\n    pass\n",
    }
    files |= {f"pkg/m{k}.py": f"from .m{k - 1} import t{k - 1} as t{k}\n" for k in range(1, n)}
    return files


def excludes(n: int) -> Files:
    quoted = ", ".join(f'"pkg/gen_{i:05d}.py"' for i in range(n))
    files = {"pyproject.toml": f"[tool.jobledger]\nexclude = [{quoted}]\n", "pkg/__init__.py": ""}
    files |= {f"pkg/mod_{i:03d}.py": TASK for i in range(200)}
    return files


def gitignores(depth: int) -> Files:
    text = "\n".join(f"ignored_{i:06d}.py" for i in range(58_500))[: 1024 * 1024 - 1]
    files = {"pyproject.toml": "[tool.jobledger]\nrespect_gitignore = true\n"}
    for level in range(depth):
        folder = "/".join(["pkg"] + [f"d{k}" for k in range(level)])
        files |= {f"{folder}/.gitignore": text, f"{folder}/__init__.py": ""}
        files |= {f"{folder}/tasks.py": TASK, f"{folder}/ignored_{level:06d}.py": TASK}
    return files


INPUTS: dict[str, Callable[[], Files]] = {
    "chain-1000": lambda: chain(1000),
    "chain-2300": lambda: chain(2300),
    "modules-300": lambda: modules(300),
    "exclude-40k": lambda: excludes(40_000),
    "gitignore-4x1M": lambda: gitignores(4),
}


def run(checkout: Path, root: Path, limit: int) -> tuple[float, bool, str]:
    """The child's CPU seconds (user + system: the shared machine's load does not inflate them,
    as it does wall time), whether it was stopped at ``limit`` CPU seconds, and what its ledger
    holds."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    ledger = root / "ledger.json"
    command = [sys.executable, "-m", "pytest_jobledger", "extract", "--no-cache"]
    command += ["--root", str(root), "--output", str(ledger)]

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 5))

    started = resource.getrusage(resource.RUSAGE_CHILDREN)
    # run from the checkout: ``-m`` puts the working folder first on the import path
    done = subprocess.run(
        command, env=env, cwd=checkout, capture_output=True, text=True, preexec_fn=cap
    )
    ended = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (ended.ru_utime - started.ru_utime) + (ended.ru_stime - started.ru_stime)
    if done.returncode < 0:
        return seconds, True, f"stopped at the {limit} s CPU limit"
    if done.returncode not in (0, 1) or not ledger.is_file():
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or [""]
        return seconds, False, f"exit {done.returncode}: {last[0][:60]}"
    data = json.loads(ledger.read_text(encoding="utf-8"))
    ledger.unlink()
    patterns = sorted({u["pattern"] for u in data["unsupported"]})
    return seconds, False, f"{len(data['jobs'])} jobs, {len(data['unsupported'])} {patterns}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--cpu-limit", type=int, default=300, help="CPU seconds per run")
    parser.add_argument("--only", nargs="*", choices=sorted(INPUTS))
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    print("| input | before CPU s | before found | after CPU s | after found | before / after |")
    print("|---|---:|---|---:|---|---:|")
    for name, build in INPUTS.items():
        if args.only and name not in args.only:
            continue
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            for rel, text in build().items():
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).write_text(text, encoding="utf-8")
            before, stopped, before_found = run(args.before.resolve(), root, args.cpu_limit)
            after, _, after_found = run(args.after.resolve(), root, args.cpu_limit)
        more = "> " if stopped else ""
        print(
            f"| {name} | {more}{before:.1f} | {before_found} | {after:.1f} | {after_found} "
            f"| {more}{before / after:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
