"""The README's two commands, run in order in a fresh copy of the repository, both pass: what the
first leaves in the working tree (the example's content cache) cannot fail the second.

The copy is what a clone holds (:func:`repo_files.copy_tracked`, committed into a new git
repository), and every command runs with this interpreter and the copy first on ``PYTHONPATH``,
so it is the copy's code that runs. ``pip install -e .`` itself is not run: it would reach for
the network and re-point this environment at the copy; the environment already holds the
package and its test extras.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from repo_files import REPO, copy_tracked

#: Tests of the second command that copy the example the first command ran in.
SECOND = ("tests/test_plugin.py", "-k", "cache_flag_leaves_no_cache or collects_status_then")


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def test_the_readme_commands_pass_in_order_in_a_fresh_clone(tmp_path: Path) -> None:
    clone = copy_tracked(REPO, tmp_path / "clone")
    env = {
        **os.environ,
        "PYTHONPATH": str(clone),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_AUTHOR_NAME": "readme",
        "GIT_AUTHOR_EMAIL": "readme@example.invalid",
        "GIT_COMMITTER_NAME": "readme",
        "GIT_COMMITTER_EMAIL": "readme@example.invalid",
    }
    env.pop("JOBLEDGER_CACHE_DIR", None)
    env.pop("PYTEST_ADDOPTS", None)
    env.pop("PYTEST_XDIST_WORKER", None)
    for git in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "clone"]):
        subprocess.run(["git", *git], cwd=clone, env=env, check=True, capture_output=True)
    python = sys.executable
    # (cd examples/homegrown && jobledger extract -o - && pytest --jobledger -v)
    example = clone / "examples" / "homegrown"
    extract = _run([python, "-m", "pytest_jobledger", "extract", "-o", "-"], example, env)
    assert extract.returncode == 0, extract.stderr
    assert '"acme.billing.tasks.capture_invoice"' in extract.stdout
    gate = _run([python, "-m", "pytest", "--jobledger", "-v"], example, env)
    assert gate.returncode == 0, gate.stdout[-2000:]
    assert "overlays/job_policy.yaml::acme.billing.tasks.send_receipt::idempotent PASSED" in (
        gate.stdout
    )
    # then: pytest (the tests that copy that example, in the same working tree)
    suite = _run([python, "-m", "pytest", "-p", "no:randomly", "-q", *SECOND], clone, env)
    assert suite.returncode == 0, suite.stdout[-3000:]
    assert suite.stdout.splitlines()[-1].startswith("2 passed"), suite.stdout
