"""Each bundled example is its own pytest root: the README's first command runs there under the
example's settings, never the repository's (its addopts, its warnings-as-errors, its node ids)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(path.parent for path in (REPO / "examples").glob("*/pyproject.toml"))


def _table(project: Path) -> dict[str, object]:
    return tomllib.loads((project / "pyproject.toml").read_text("utf-8"))


@pytest.mark.parametrize("project", EXAMPLES, ids=[path.name for path in EXAMPLES])
def test_every_example_is_a_pytest_root_with_its_jobledger_table(project: Path) -> None:
    table = _table(project)["tool"]
    assert isinstance(table, dict)
    # [tool.pytest.ini_options] makes pytest stop here instead of at the repository's file.
    assert table["pytest"] == {"ini_options": {}}
    assert "jobledger" in table


def test_the_repository_collects_only_its_own_tests() -> None:
    options = _table(REPO)["tool"]["pytest"]["ini_options"]  # type: ignore[index]
    assert options["testpaths"] == ["tests"]


def test_the_readme_command_runs_under_the_examples_own_settings() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "GITHUB_"))}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--jobledger", "-v", "-p", "no:cacheprovider"],
        cwd=REPO / "examples" / "homegrown",
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert f"rootdir: {REPO / 'examples' / 'homegrown'}" in lines
    assert "configfile: pyproject.toml" in lines
    items = [line for line in lines if "::" in line and line.endswith("%]")]
    assert len(items) == 13
    assert all(line.startswith("overlays/job_policy.yaml::") for line in items)
