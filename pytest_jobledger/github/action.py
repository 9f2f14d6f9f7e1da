"""What the composite action runs: ``python -I -m pytest_jobledger.github.action`` in its venv.

The action's inputs arrive as environment variables (never pasted into a shell script), and
``pytest-args`` is split here with shell quoting rules but never handed to a shell.

The pull request's files are data, never code. The gate needs nothing from the project but its
``[tool.jobledger]`` table, the overlay and the sources it parses, so the child pytest is started
where no repository file can reach it:

- ``python -I``: the current folder, ``PYTHONPATH`` and the user site are not on ``sys.path``;
- its current folder is a fresh empty folder of ours, and its environment has no ``PYTHON*``
  variable but ``PYTHONSAFEPATH`` and ``PYTHONNOUSERSITE``, so pytest-xdist's workers (which
  execnet starts without ``-I``) are isolated the same way;
- ``-c`` names an ini file of ours: no ``pytest.ini``, ``tox.ini``, ``setup.cfg`` or
  ``pyproject.toml`` of the project is read (no ``pythonpath``, ``python_files``, ``addopts``,
  ``required_plugins``); ``--rootdir`` keeps the node ids
  ``overlays/job_policy.yaml::<job>::<cell>``;
- ``--noconftest``, and pytest collects only that empty folder (the gate adds its items whatever
  was collected), so no module of the project is imported, whatever the overlay is called;
- no plugin autoloads: the gate's two plugins and pytest-xdist's are named with ``-p``.
  ``PYTEST_ADDOPTS`` and ``PYTEST_PLUGINS`` are left out too: they are the job's settings for the
  project's own tests, and ``pytest-args`` is the action's one way to pass pytest options.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import git
from ..core import environment
from ..core.outside import scratch_folder, write_scratch
from ..core.text import one_line
from ..project import find_pyproject
from .context import GitHubContext, base_refs

#: The gate's own plugins (the ``pytest11`` entry points of pytest-jobledger).
PLUGINS: tuple[str, ...] = ("pytest_jobledger.plugin", "pytest_jobledger.github.plugin")

BASE_ARGS: tuple[str, ...] = (
    "--jobledger",
    "-m",
    "jobledger",
    "--noconftest",
    "-p",
    "no:cacheprovider",
)

#: The ini file the child reads instead of the project's.
INI_TEXT = (
    "# Written by pytest-jobledger's action: no configuration of the project is read.\n[pytest]\n"
)

#: Environment the child (and pytest-xdist's workers) get on top of the filtered job environment.
ISOLATED_ENV: Mapping[str, str] = {
    "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    "PYTHONSAFEPATH": "1",  # 3.11+: no script folder or current folder on a worker's sys.path
    "PYTHONNOUSERSITE": "1",
}
DROPPED_ENV: tuple[str, ...] = ("PYTEST_ADDOPTS", "PYTEST_PLUGINS")


@dataclass(frozen=True)
class Child:
    """The child pytest process: its command line, environment and current folder."""

    argv: list[str]
    env: dict[str, str]
    cwd: Path

    @property
    def pytest_args(self) -> list[str]:
        """The arguments after ``python -I -m pytest``."""
        return self.argv[4:]


def xdist_plugins() -> tuple[str, ...]:
    """pytest-xdist's plugin modules as its distribution declares them, when it is installed."""
    if importlib.util.find_spec("xdist") is None:
        return ()
    try:
        points = importlib.metadata.distribution("pytest-xdist").entry_points
    except importlib.metadata.PackageNotFoundError:
        return ()
    return tuple(point.value for point in points if point.group == "pytest11")


def project_root(project: Path) -> Path:
    """The gate's root for a working directory: the nearest ``pyproject.toml``'s folder, as for
    ``jobledger check`` (the child cannot find it from its own current folder)."""
    project = project.resolve()
    pyproject = find_pyproject(project)
    return pyproject.parent if pyproject is not None else project


def cache_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The content cache and its key under ``RUNNER_TEMP``, never in the checkout (whatever the
    job's environment names): a cache the pull request carries is then neither read nor
    written, and the key is the job's own."""
    temp = environ.get("RUNNER_TEMP", "")
    if not temp:
        return {}
    return {
        environment.CACHE_DIR: os.path.join(temp, "jobledger-cache"),
        environment.KEY_DIR: os.path.join(temp, "jobledger-key"),
    }


def child_environment(environ: Mapping[str, str]) -> dict[str, str]:
    env = {
        name: value
        for name, value in environ.items()
        if not name.upper().startswith("PYTHON") and name.upper() not in DROPPED_ENV
    }
    env.update(ISOLATED_ENV)
    env.update(cache_environment(environ))
    return env


def pytest_arguments(
    environ: Mapping[str, str],
    project: Path,
    scratch: Path,
    plugins: Sequence[str] = PLUGINS,
) -> list[str]:
    """The pytest command line for the action's inputs (``ValueError`` on unbalanced quotes in
    ``pytest-args`` or an ``annotations`` value that is not ``changed`` or ``all``).

    ``project`` is the working directory the action was given, ``scratch`` the child's own empty
    folder (its current folder, with its ini file and the one path it collects).
    """
    project = project.resolve()
    root = project_root(project)
    args = [
        "-c",
        str(scratch / "pytest.ini"),
        f"--rootdir={root}",
        f"--jobledger-root={root}",
        *BASE_ARGS,
    ]
    for plugin in plugins:
        args += ["-p", plugin]
    sarif = environment.read(environment.SARIF_FILE, environ)
    if sarif:
        args += ["--jobledger-sarif", os.path.join(project, sarif)]
    mode = environment.read(environment.ANNOTATIONS, environ)
    if mode:
        if mode not in ("changed", "all"):
            raise ValueError(f"annotations: {mode!r} is not 'changed' or 'all'")
        args.append(f"--jobledger-annotations={mode}")
    try:
        user = shlex.split(environment.read(environment.PYTEST_ARGS, environ))
    except ValueError as error:
        raise ValueError(f"pytest-args: {error}") from None
    base = pull_request_base(environ, root)
    if base is not None and not any(arg.startswith("--jobledger-base") for arg in user):
        args.append(f"--jobledger-base={base}")
    return args + user


def pull_request_base(environ: Mapping[str, str], root: Path) -> str | None:
    """The pull request's base for review-after-change and the summary's diff: the first of the
    event's base commit and ``origin/<base ref>`` that this clone has, else the first (the gate
    then says once why it has no base, e.g. a shallow clone); ``None`` outside a pull request."""
    refs = base_refs(GitHubContext.from_environ(environ))
    for ref in refs:
        try:
            git.resolve_commit(ref, root)
        except git.GitUnavailable:
            continue
        return ref
    return refs[0] if refs else None


def prepare(scratch: Path) -> Path:
    """Write the child's ini file and make the empty folder it collects; return that folder."""
    write_scratch(scratch, "pytest.ini", INI_TEXT)
    return scratch_folder(scratch, "collect")


def child_process(
    environ: Mapping[str, str],
    project: Path,
    scratch: Path,
    extra: Sequence[str] = (),
) -> Child:
    """The child pytest for ``project``, run from ``scratch`` (see :func:`prepare`)."""
    args = pytest_arguments(environ, project, scratch, plugins=(*PLUGINS, *xdist_plugins()))
    empty = scratch / "collect"
    return Child(
        argv=[sys.executable, "-I", "-m", "pytest", *args, *extra, str(empty)],
        env=child_environment(environ),
        cwd=scratch,
    )


def main(argv: Sequence[str] | None = None) -> int:
    return run_gate(Path.cwd(), argv or ())


def run_gate(project: Path, extra: Sequence[str] = ()) -> int:
    """The gate alone for the project at ``project``, as the action runs it (and ``jobledger
    gate`` does, so a local run and CI agree): pytest isolated from the project's tests."""
    with tempfile.TemporaryDirectory(prefix="jobledger-", ignore_cleanup_errors=True) as folder:
        scratch = Path(folder).resolve()
        try:
            child = child_process(os.environ, project, scratch, extra)
        except ValueError as error:
            print(one_line(f"jobledger: {error}"), file=sys.stderr)
            return 2
        prepare(scratch)
        print(one_line("jobledger: pytest " + shlex.join(child.pytest_args)), flush=True)
        # A child process, not pytest.main(): pytest must import (and assertion-rewrite) the plugin.
        return subprocess.run(child.argv, cwd=child.cwd, env=child.env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
