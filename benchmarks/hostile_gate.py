"""Time and peak memory of the gate and the stub on hostile overlays and ledgers, one child each.

    python benchmarks/hostile_gate.py [--only NAME ...] [--keep]

Each input is a small project written to a temporary folder (a module of ``--jobs`` Celery tasks,
a ``pyproject.toml``, an overlay or a committed ledger), and each is run in its own child process
(``python -m pytest_jobledger check --format json``, or ``stub``), so the peak resident memory
reported (``ru_maxrss`` of that child, from ``os.wait4``) is the command's alone. The table gives
the wall time, the peak RSS, the exit status and the first words of what the command said.
Nothing is asserted: the figures depend on the machine (and on its load); read the table.

Inputs (each once a crash or a stall):

- ``baseline``: the jobs, every one signed; what any run costs;
- ``orphans-2k``: 2,000 orphan entries ("did you mean" used to compare every pair: 49 s);
- ``orphans-42k``: a 1 MB overlay of 42,000 orphan entries (used to run past 900 s);
- ``ceiling``: a 4 MiB overlay (the ``max_overlay_bytes`` ceiling) of signed orphans;
- ``too-large``: a 10 MB overlay, refused by size before it is parsed;
- ``deep-flow``, ``deep-block``: 50,000 ``[`` and 400 nested block mappings in the overlay;
- ``nested-ledger``: a committed ledger of 100,000 nested ``[``;
- ``stub-6600``: the stub for 6,600 unsigned jobs (its overlay would pass 1 MiB: refused).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

SIGNED = (
    '    idempotent: "yes"\n'
    "    poison_policy: park the payload and page the owner after three parks\n"
    "    paging_owner: billing-oncall\n"
    "    runtime_class: synchronous-short\n"
    "    purpose_accepted: Charges a captured authorization.\n"
)


@dataclass(frozen=True)
class Input:
    name: str
    command: str
    build: Callable[[Path, int], None]
    max_overlay_bytes: int | None = None


def tasks_module(jobs: int) -> str:
    body = ["from celery import shared_task", ""]
    for n in range(jobs):
        body += ["", "@shared_task", f"def job_{n:05d}(payload):", f'    """Job {n}."""', ""]
    return "\n".join(body)


def project(root: Path, jobs: int, overlay: str | None, limit: int | None = None) -> None:
    (root / "src" / "acme").mkdir(parents=True)
    (root / "src" / "acme" / "__init__.py").write_text("")
    (root / "src" / "acme" / "tasks.py").write_text(tasks_module(jobs))
    extra = f"max_overlay_bytes = {limit}\n" if limit else ""
    (root / "pyproject.toml").write_text(f'[tool.jobledger]\npaths = ["src"]\n{extra}')
    if overlay is not None:
        (root / "overlays").mkdir()
        (root / "overlays" / "job_policy.yaml").write_text(overlay)


def signed_entries(jobs: int) -> str:
    return "".join(f"  acme.tasks.job_{n:05d}:\n{SIGNED}" for n in range(jobs))


def orphans(count: int, *, signed: bool = False, width: int = 0) -> str:
    body = SIGNED if signed else '    idempotent: "no"\n'
    pad = "x" * width
    return "".join(f"  acme.gone{n % 97}.tasks.old_job_{n:06d}{pad}:\n{body}" for n in range(count))


def baseline(root: Path, jobs: int) -> None:
    project(root, jobs, "jobs:\n" + signed_entries(jobs))


def orphans_2k(root: Path, jobs: int) -> None:
    project(root, jobs, "jobs:\n" + signed_entries(jobs) + orphans(2000))


def orphans_42k(root: Path, jobs: int) -> None:
    text = "jobs:\n" + orphans(42_000, width=0)
    while len(text.encode()) > 1_000_000:  # "a 1 MB overlay": just under the default limit
        text = text[: text.rindex("\n  acme.gone")] + "\n"
    project(root, jobs, text)


def ceiling(root: Path, jobs: int) -> None:
    limit = 4 * 1024 * 1024
    text = "jobs:\n" + signed_entries(jobs)
    entry = orphans(1, signed=True)
    text += orphans((limit - len(text)) // len(entry), signed=True)
    while len(text.encode()) > limit:  # just under the ceiling
        text = text[: text.rindex("\n  acme.gone")] + "\n"
    project(root, jobs, text, limit)


def too_large(root: Path, jobs: int) -> None:
    project(root, jobs, "jobs:\n" + orphans(60_000, signed=True))


def deep_flow(root: Path, jobs: int) -> None:
    project(root, jobs, "jobs: " + "[" * 50_000)


def deep_block(root: Path, jobs: int) -> None:
    project(root, jobs, "jobs:\n" + "".join(" " * (2 * i + 2) + f"k{i}:\n" for i in range(400)))


def nested_ledger(root: Path, jobs: int) -> None:
    project(root, jobs, "jobs:\n" + signed_entries(jobs))
    (root / "generated").mkdir()
    (root / "generated" / "job_ledger.json").write_text("[" * 100_000)


def stub_6600(root: Path, jobs: int) -> None:
    project(root, 6600, "jobs:\n")


INPUTS = (
    Input("baseline", "check", baseline),
    Input("orphans-2k", "check", orphans_2k),
    Input("orphans-42k", "check", orphans_42k),
    Input("ceiling", "check", ceiling),
    Input("too-large", "check", too_large),
    Input("deep-flow", "check", deep_flow),
    Input("deep-block", "check", deep_block),
    Input("nested-ledger", "check", nested_ledger),
    Input("stub-6600", "stub", stub_6600),
)


def run_child(root: Path, command: str) -> tuple[float, int, int, str]:
    """Wall seconds, peak RSS (KiB), exit status and the first line the command printed."""
    args = [sys.executable, "-m", "pytest_jobledger", command, "--root", str(root)]
    if command == "check":
        args += ["--format", "text"]
    started = time.perf_counter()
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert child.stdout is not None
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    lines = [line for line in output.splitlines() if line.strip()]
    said = next((line for line in lines if "overlay-valid" in line or "ledger-fresh" in line), "")
    said = said or (lines[-1] if lines else "")
    return elapsed, usage.ru_maxrss, child.returncode, said


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1000, help="jobs in the project (1000)")
    parser.add_argument("--only", nargs="*", help="run only these inputs")
    parser.add_argument("--keep", action="store_true", help="print and keep the folders")
    args = parser.parse_args(argv)
    chosen = [item for item in INPUTS if not args.only or item.name in args.only]
    head = f"{'input':<14} {'command':<6} {'overlay':>10} {'seconds':>8} {'peak RSS':>9}"
    print(head + "  exit  says")
    for item in chosen:
        folder = Path(tempfile.mkdtemp(prefix=f"jobledger-{item.name}-"))
        item.build(folder, args.jobs)
        overlay = folder / "overlays" / "job_policy.yaml"
        size = f"{overlay.stat().st_size / 1e6:.2f} MB" if overlay.exists() else "-"
        seconds, rss, code, said = run_child(folder, item.command)
        said = said.split(": ", 1)[-1][:90]
        print(
            f"{item.name:<14} {item.command:<6} {size:>10} {seconds:>8.2f} "
            f"{rss / 1024:>6.0f} MB  {code:>4}  {said}"
        )
        if args.keep:
            print(f"  kept {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
