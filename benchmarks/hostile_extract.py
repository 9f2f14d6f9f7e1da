"""Time and peak memory of ``jobledger extract`` on hostile inputs, one child process each.

    python benchmarks/hostile_extract.py [--only NAME ...] [--timeout 600] [--memory-limit-mb 8192]

Each input is written into its own temporary project next to one ordinary job module, then
``jobledger extract`` runs on it in a child process. The table gives the child's wall time, its
CPU time (user + system: on a busy machine read this one, wall time includes waiting), its peak
resident memory (``ru_maxrss`` from ``os.wait4``), its exit status and what the ledger says about
the hostile file. The ``within-*`` inputs are the costliest files of their shape that the limits
still let through: what one parsed file can cost at most.

The child runs under an address-space limit (``RLIMIT_AS``) and a timeout so that a regression
cannot take the machine down with it; hitting either is shown as such, not as a number. Nothing
here is asserted: read the table. Timings never go into tests.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

GOOD = '''from celery import shared_task


@shared_task(queue="billing")
def capture_invoice(invoice_id):
    """Charge an invoice."""
'''

HEADER = "from celery import shared_task\n\n"
MIB = 1024 * 1024


def _plus_terms(terms: int) -> dict[str, str]:
    queue = "+".join(["1"] * terms)
    return {"deep.py": f"{HEADER}@shared_task(queue={queue})\ndef f():\n    pass\n"}


def _nested_parens(depth: int) -> dict[str, str]:
    value = "(" * depth + "1" + ")" * depth
    return {"deep.py": f"{HEADER}@shared_task(queue={value})\ndef f():\n    pass\n"}


def _assignments(size: int) -> str:
    """A module of plain assignments, ``size`` bytes at most, that mentions a job decorator
    (files that do not are never parsed)."""
    lines = [HEADER, "@shared_task\ndef f():\n    pass\n\n"]
    total = sum(map(len, lines))
    index = 0
    while True:
        line = f"value_{index} = {index}\n"
        if total + len(line) > size:
            return "".join(lines)
        lines.append(line)
        total += len(line)
        index += 1


def _just_within(line: str, before: str = "", after: str = "") -> dict[str, str]:
    """As many copies of ``line`` as the parser work limit allows: the costliest file of this
    shape that is still parsed."""
    from pytest_jobledger.extract.limits import MAX_WORK, measure

    def text(count: int) -> str:
        return HEADER + before + line * count + after

    low, high = 1, 1
    while measure(text(high), max_work=10**12).work <= MAX_WORK:
        high *= 2
    while low < high - 1:
        middle = (low + high) // 2
        if measure(text(middle), max_work=10**12).work <= MAX_WORK:
            low = middle
        else:
            high = middle
    return {"within.py": text(low)}


def _modules(count: int, size: int) -> dict[str, str]:
    text = _assignments(size)
    return {f"generated_{n}.py": text for n in range(count)}


def _dense_calls(size: int, depth: int) -> dict[str, str]:
    line = "value = " + "f(" * depth + "1" + ")" * depth + "\n"
    return {"dense.py": HEADER + line * (size // len(line))}


def _surrogates() -> dict[str, str]:
    return {
        "odd.py": (
            f"{HEADER}@shared_task(queue='q\\udfff')\n"
            "def f():\n"
            "    '''Lone surrogate \\udfff in a docstring.'''\n"
        )
    }


def _nul() -> dict[str, bytes]:
    return {"nul.py": HEADER.encode() + b"\n\nx = 1\x00\n@shared_task\ndef f():\n    pass\n"}


@dataclass(frozen=True)
class Hostile:
    name: str
    about: str
    files: Callable[[], dict[str, str] | dict[str, bytes]]
    config: str = ""


HOSTILE: tuple[Hostile, ...] = (
    Hostile(
        "plus-20k", "a decorator argument of 20,000 + terms (40 KB)", lambda: _plus_terms(20_000)
    ),
    Hostile(
        "parens-2000", "2,000 nested parentheses in a 4 KB file", lambda: _nested_parens(2_000)
    ),
    Hostile("assign-4mib", "a 4 MiB module of plain assignments", lambda: _modules(1, 4 * MIB)),
    Hostile(
        "assign-4mib-x6",
        "six 4 MiB modules of plain assignments",
        lambda: _modules(6, 4 * MIB),
    ),
    Hostile(
        "assign-4mib-raised",
        "a 4 MiB module, max_file_bytes raised to 1 GB in pyproject.toml",
        lambda: _modules(1, 4 * MIB),
        config="max_file_bytes = 1_000_000_000\n",
    ),
    Hostile(
        "assign-50mb-raised",
        "a 50 MB module, max_file_bytes raised to 1 GB in pyproject.toml",
        lambda: _modules(1, 50 * 1000 * 1000),
        config="max_file_bytes = 1_000_000_000\n",
    ),
    Hostile(
        "dense-calls",
        "200 KB of statements nested 20 calls deep",
        lambda: _dense_calls(200_000, 20),
    ),
    Hostile("surrogates", "lone surrogates in a docstring and a literal", _surrogates),
    Hostile("nul-line-5", "a NUL byte on line 5", _nul),
    Hostile(
        "within-dense",
        "the most one-line assignments the work limit lets through",
        lambda: _just_within("value = f(1)\n"),
    ),
    Hostile(
        "within-nested",
        "the most 90-deep nested calls the work limit lets through",
        lambda: _just_within("value = " + "f(" * 90 + "1" + ")" * 90 + "\n"),
    ),
    Hostile(
        "within-dict",
        "the largest literal dict the work limit lets through",
        lambda: _just_within('    "key": [1, 2, {"a": -1}],\n', "TABLE = {\n", "}\n"),
    ),
)


def _write(root: Path, hostile: Hostile) -> None:
    (root / "pyproject.toml").write_text(f"[tool.jobledger]\n{hostile.config}")
    (root / "good.py").write_text(GOOD)
    for name, content in hostile.files().items():
        path = root / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def _limit(memory_bytes: int) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))

    return apply


def _run(hostile: Hostile, timeout: float, memory_limit: int) -> dict[str, str]:
    with tempfile.TemporaryDirectory(prefix=f"hostile-{hostile.name}-") as folder:
        root = Path(folder) / "project"
        root.mkdir()
        _write(root, hostile)
        out = root / "ledger.json"
        errors = Path(folder) / "stderr.txt"
        command = [sys.executable, "-m", "pytest_jobledger", "extract", "--root", str(root)]
        command += ["-o", str(out)]
        started = time.perf_counter()
        with errors.open("wb") as stderr:
            child = subprocess.Popen(
                command,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                preexec_fn=_limit(memory_limit),  # a benchmark: single-threaded parent
            )
            status, usage, timed_out = _wait(child.pid, timeout)
        elapsed = time.perf_counter() - started
        if timed_out:
            outcome = f"killed at {timeout:.0f} s"
        elif os.WIFSIGNALED(status):
            outcome = f"died: {signal.Signals(os.WTERMSIG(status)).name}"
        else:
            outcome = f"exit {os.WEXITSTATUS(status)}"
        ledger = _describe(out, errors.read_text("utf-8", "replace"))
    return {
        "elapsed": f"{elapsed:.2f} s",
        "cpu": f"{usage.ru_utime + usage.ru_stime:.2f} s",
        "rss": f"{usage.ru_maxrss / 1024:.0f} MB",
        "outcome": outcome,
        "ledger": ledger,
    }


def _wait(pid: int, timeout: float) -> tuple[int, resource.struct_rusage, bool]:
    """The child's exit status and its own resource usage (``wait4``), killing it at ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        waited, status, usage = os.wait4(pid, os.WNOHANG)
        if waited == pid:
            return status, usage, False
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            _, status, usage = os.wait4(pid, 0)
            return status, usage, True
        time.sleep(0.05)


def _describe(out: Path, stderr: str) -> str:
    if "Traceback" in stderr:
        return "traceback: " + stderr.strip().splitlines()[-1][:80]
    if not out.is_file():
        return "no ledger"
    ledger = json.loads(out.read_text("utf-8"))
    jobs = len(ledger["jobs"])
    problems = [
        f"{item['path']}:{item['line']} {item['pattern']}"
        for item in ledger["unsupported"]
        if item["path"] != "good.py"
    ]
    shown = "; ".join(sorted(set(problems))[:3]) or "no problem"
    return f"{jobs} jobs; {shown}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", help="run only these inputs (by name)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per input")
    parser.add_argument(
        "--memory-limit-mb", type=int, default=8192, help="address-space limit per child"
    )
    args = parser.parse_args(argv)
    chosen = [h for h in HOSTILE if not args.only or h.name in args.only]
    print(f"{'input':20} {'wall':>9} {'cpu':>9} {'peak RSS':>9}  {'outcome':16} ledger")
    for hostile in chosen:
        result = _run(hostile, args.timeout, args.memory_limit_mb * MIB)
        print(
            f"{hostile.name:20} {result['elapsed']:>9} {result['cpu']:>9} {result['rss']:>9}  "
            f"{result['outcome']:16} {result['ledger']}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
