"""The nine readings issue 20 found wrong, one case folder each under ``tests/cases/session``.

Each folder holds ``case.json``: a bundled example to start from (``project``), lines added to
its ``[tool.jobledger]`` table (``config``), environment variables (``env``), and ``steps`` run in
order in a fresh copy, each one of:

- ``{"edit": [path, old, new]}`` replaces text; ``{"write": [path, text]}`` writes a file;
  ``{"copy": [folder, path]}`` copies a file of the case folder, ``{"remove": path}`` deletes
  one; ``{"crlf": path}`` gives a file
  CRLF line endings; ``{"pad": [path, bytes]}`` appends comment lines until the file is that big;
  ``{"nest": [path, depth, open, close]}`` writes ``open * depth + close * depth``;
- ``{"commit": message}`` commits everything (the first commit makes the repository; ``{base}``
  in later arguments is its id; ``{root}`` in ``env`` is the project's folder);
- ``{"jobledger": [args], ...}`` or ``{"pytest": [args], ...}`` runs the real command in a child
  process, with ``exit`` (the expected code), ``out`` and ``err`` (text the output holds), and
  ``not_out`` / ``not_err`` (text it must not hold). No step may print a traceback, and each
  must finish (a generous bound, for a hang; never a timed assertion).

Every case fails on the code before the session layer (a crash, a hang, or a wrong answer).
"""

from __future__ import annotations

import html
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from gate._repo import GIT_ENV, git

REPO = Path(__file__).resolve().parents[2]
CASES = REPO / "tests" / "cases" / "session"
CASE_DIRS = sorted(path for path in CASES.iterdir() if (path / "case.json").is_file())
#: Far above any step's run (a hang is what it bounds).
HANG_S = 300


def _setup(case: Path, work: Path, spec: dict[str, Any]) -> Path:
    root = work / "project"
    shutil.copytree(REPO / "examples" / spec["project"], root)
    pyproject = root / "pyproject.toml"
    lines = "".join(f"{line}\n" for line in spec.get("config", []))
    text = pyproject.read_text("utf-8")
    pyproject.write_text(text.replace("[tool.jobledger]\n", f"[tool.jobledger]\n{lines}", 1))
    return root


def _run(root: Path, step: dict[str, Any], env: dict[str, str], base: str) -> None:
    if "jobledger" in step:
        argv = [sys.executable, "-m", "pytest_jobledger", *step["jobledger"]]
    else:
        argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *step["pytest"]]
    argv = [arg.replace("{base}", base) for arg in argv]
    done = subprocess.run(
        argv, cwd=root, env=env, capture_output=True, text=True, timeout=HANG_S, check=False
    )
    shown = f"{argv[3:]}\n--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}"
    assert "Traceback" not in done.stdout + done.stderr, shown
    assert done.returncode == step.get("exit", 0), shown
    for text in step.get("out", []):
        # A Markdown page writes repository text as entities: what it says is the decoded text.
        assert text in done.stdout or text in html.unescape(done.stdout), (text, shown)
    for text in step.get("err", []):
        assert text in done.stderr, (text, shown)
    for text in step.get("not_out", []):
        assert text not in done.stdout, (text, shown)
    for text in step.get("not_err", []):
        assert text not in done.stderr, (text, shown)


@pytest.mark.parametrize("case", CASE_DIRS, ids=[path.name for path in CASE_DIRS])
def test_case(case: Path, tmp_path: Path) -> None:
    spec = json.loads((case / "case.json").read_text("utf-8"))
    root = _setup(case, tmp_path, spec)
    own = {name: value.replace("{root}", str(root)) for name, value in spec.get("env", {}).items()}
    env = {**os.environ, **GIT_ENV, **own}
    for name in ("PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER", "JOBLEDGER_TODAY", "GITHUB_ACTIONS"):
        if name not in own:
            env.pop(name, None)
    env["JOBLEDGER_CACHE_DIR"] = str(tmp_path / "cache")
    env["GITHUB_WORKSPACE"] = str(root)
    base = ""
    for step in spec["steps"]:
        if "edit" in step:
            path, old, new = step["edit"]
            text = (root / path).read_text("utf-8")
            assert old in text, (path, old)
            (root / path).write_text(text.replace(old, new), "utf-8")
        elif "write" in step:
            path, text = step["write"]
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text.replace("{base}", base), "utf-8")
        elif "copy" in step:
            source, path = step["copy"]
            shutil.copyfile(case / source, root / path)
        elif "remove" in step:
            (root / step["remove"]).unlink()
        elif "crlf" in step:
            target = root / step["crlf"]
            target.write_bytes(target.read_bytes().replace(b"\n", b"\r\n"))
        elif "pad" in step:
            path, size = step["pad"]
            with (root / path).open("a", encoding="utf-8") as handle:
                while (root / path).stat().st_size < size:
                    handle.write("# " + "padding " * 12 + "\n")
                    handle.flush()
        elif "nest" in step:
            path, depth, opening, closing = step["nest"]
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(opening * depth + closing * depth, "utf-8")
        elif "commit" in step:
            if not (root / ".git").exists():
                git("init", "-q", cwd=root)
            git("add", "-A", cwd=root)
            git("commit", "-q", "--allow-empty", "-m", step["commit"], cwd=root)
            if not base:
                base = subprocess.run(
                    ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True,
                    check=True,
                ).stdout.strip()  # fmt: skip
        else:
            _run(root, step, env, base)
