"""A pull request that lays out folders as git directories, and commits a cache, runs nothing and
hides nothing.

git takes a folder holding ``HEAD``, ``config``, ``objects/`` and ``refs/`` for a (bare)
repository when it is started there, and obeys its ``config``: programs for fsmonitor, external
diffs, textconv, filter and merge drivers (named by a committed ``.gitattributes``), hooks,
pagers, credential helpers, ssh, gpg, includes, ``core.worktree``. Each planted folder here holds
all of them; every program touches a marker named after its setting in a folder outside the
repository. The pull request adds an unsigned job, so each route must also still fail the gate:
no marker, and the right result, through ``jobledger check``, ``check --base``, ``jobledger
diff``, ``pytest --jobledger`` with the GitHub plugin on a ``pull_request`` event, and the
Action's gate script; in a root project and in a subfolder project whose own folder is planted.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from repo_files import copy_tracked

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "celery"
BASH = shutil.which("bash")
NEW_JOB = "acme_shop.hostile.sweep"
NEW_TASKS = '''"""Added by the pull request, unsigned."""

from acme_shop.celery_app import app


@app.task(name="acme_shop.hostile.sweep", queue="celery")
def sweep() -> None:
    """Sweep."""
'''

#: Every setting that names a program, with the program's marker label.
PROGRAMS = {
    "core.fsmonitor": "fsmonitor",
    "core.pager": "pager",
    "core.sshCommand": "ssh",
    "core.askPass": "askpass",
    "core.editor": "editor",
    "core.alternateRefsCommand": "alternate-refs",
    "diff.external": "diff-external",
    'diff "evil".textconv': "textconv",
    'diff "evil".command': "diff-command",
    'filter "evil".clean': "filter-clean",
    'filter "evil".smudge': "filter-smudge",
    'filter "evil".process': "filter-process",
    'merge "evil".driver': "merge-driver",
    "credential.helper": "credential",
    "gpg.program": "gpg",
    "pager.diff": "pager-diff",
    "pager.ls-tree": "pager-ls-tree",
    "uploadpack.packObjectsHook": "pack-objects-hook",
    "sequence.editor": "sequence-editor",
}
HOOKS = ("post-index-change", "reference-transaction", "post-checkout", "pre-commit", "pre-push")
ATTRIBUTES = "* diff=evil filter=evil merge=evil\n"


def _section(key: str) -> tuple[str, str]:
    section, _, name = key.rpartition(".")
    return section, name


def hostile_config(folder: Path, evil: Path, root: Path) -> str:
    """A git ``config`` naming a program for every setting, plus includes and a work tree."""
    sections: dict[str, list[str]] = {
        "core": ["repositoryformatversion = 0", "bare = false", f"worktree = {root}"]
    }
    sections["core"].append(f"hooksPath = {evil / 'hooks'}")
    sections["core"].append(f"attributesFile = {evil / 'attributes'}")
    for key, label in PROGRAMS.items():
        section, name = _section(key)
        value = f"!{evil / label}" if key == "credential.helper" else str(evil / label)
        sections.setdefault(section, []).append(f"{name} = {value}")
    sections["log"] = ["showSignature = true"]
    sections["include"] = [f"path = {folder / 'extra.config'}"]
    sections['includeIf "gitdir:/"'] = [f"path = {folder / 'extra.config'}"]
    return "".join(
        f"[{section}]\n" + "".join(f"\t{line}\n" for line in lines)
        for section, lines in sections.items()
    )


def attacker_history(tmp_path: Path) -> Path:
    """A repository of the attacker's making, two commits of a top-level ``job_policy.yaml``
    (``origin/main``, then ``main``): copied into a planted folder whose work tree is itself,
    ``git diff origin/main...HEAD -- job_policy.yaml`` finds a change to show."""
    history = tmp_path / "attacker"
    history.mkdir()
    git(history, "init", "-q", "-b", "main")
    (history / "job_policy.yaml").write_text("jobs: {}\n")
    git(history, "add", "-A")
    git(history, "commit", "-q", "-m", "one")
    git(history, "update-ref", "refs/remotes/origin/main", "HEAD")
    (history / "job_policy.yaml").write_text("jobs: {}\n# changed\n")
    git(history, "commit", "-q", "-am", "two")
    return history / ".git"


def plant(folder: Path, evil: Path, history: Path, real_git: Path) -> None:
    """Lay ``folder`` out as a git directory that is its own work tree: the attacker's history
    (and, through ``alternates``, the real repository's objects, so the real base resolves there
    too), an index (so commands that read one ask the fsmonitor), a hostile configuration."""
    shutil.copytree(history / "objects", folder / "objects", dirs_exist_ok=True)
    shutil.copytree(history / "refs", folder / "refs", dirs_exist_ok=True)
    shutil.copy(history / "index", folder / "index")
    (folder / "objects" / "info").mkdir(parents=True, exist_ok=True)
    (folder / "objects" / "info" / "alternates").write_text(f"{real_git / 'objects'}\n")
    (folder / "HEAD").write_text("ref: refs/heads/main\n")
    # core.worktree "." (relative to the git folder): the folder is its own work tree wherever
    # the checkout is copied.
    (folder / "config").write_text(hostile_config(folder, evil, Path(".")))
    (folder / "extra.config").write_text(
        f"[core]\n\tfsmonitor = {evil / 'fsmonitor-included'}\n"
        f"[diff]\n\texternal = {evil / 'diff-external-included'}\n"
    )


def programs(evil: Path, markers: Path) -> None:
    """The programs: each touches ``markers/<its label>`` and passes its input through."""
    (evil / "hooks").mkdir(parents=True)
    labels = [*PROGRAMS.values(), "fsmonitor-included", "diff-external-included"]
    scripts = [evil / label for label in labels] + [evil / "hooks" / hook for hook in HOOKS]
    for script in scripts:
        name = script.name if script.parent == evil else f"hook-{script.name}"
        script.write_text(f'#!/bin/sh\ntouch "{markers / name}"\ncat >/dev/null 2>&1\nexit 0\n')
        script.chmod(0o755)
    (evil / "attributes").write_text(ATTRIBUTES)


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        [
            "git",
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "core.hooksPath=/dev/null",
            *args,
        ],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
        env=_clean_env(),
    )
    return done.stdout.strip()


def _clean_env() -> dict[str, str]:
    return {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("PYTHON", "PYTEST_", "GITHUB_", "JOBLEDGER_", "GIT_"))
    }


@dataclass
class PullRequest:
    top: Path  # the repository's top folder
    root: Path  # the project's root (the top, or a subfolder)
    base: str
    markers: Path
    scratch: Path

    def env(self, **extra: str) -> dict[str, str]:
        event = self.scratch / "event.json"
        event.write_text(json.dumps({"pull_request": {"base": {"sha": self.base}}}))
        env = _clean_env()
        env.update(
            JOBLEDGER_KEY_DIR=str(self.scratch / "key"),
            GITHUB_ACTIONS="true",
            GITHUB_EVENT_NAME="pull_request",
            GITHUB_EVENT_PATH=str(event),
            GITHUB_BASE_REF="main",
            GITHUB_WORKSPACE=str(self.top),
            GITHUB_STEP_SUMMARY=str(self.scratch / "summary.md"),
            GITHUB_OUTPUT=str(self.scratch / "output.txt"),
        )
        env.update(extra)
        return env

    def run(self, *argv: str, **extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            argv,
            cwd=self.root,
            env=self.env(**extra),
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )

    def fired(self) -> list[str]:
        return sorted(path.name for path in self.markers.iterdir())


def pull_request(tmp_path: Path, subfolder: bool, forged_cache: bool = False) -> PullRequest:
    """The Celery example as a base commit, then a pull request that adds an unsigned job (the
    committed ledger left as the base had it) and plants git directories everywhere."""
    top = tmp_path / "repo"
    root = top / "shop" if subfolder else top
    copy_tracked(EXAMPLE, root)
    markers, scratch, evil = tmp_path / "markers", tmp_path / "scratch", tmp_path / "evil"
    markers.mkdir()
    scratch.mkdir()
    programs(evil, markers)
    git(top, "init", "-q", "-b", "main")
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "base")
    base = git(top, "rev-parse", "HEAD")
    (root / "src" / "acme_shop" / "hostile.py").write_text(NEW_TASKS)
    overlay = root / "overlays" / "job_policy.yaml"
    overlay.write_text(overlay.read_text() + "# touched by the pull request\n")
    folders = [
        root / "overlays",
        root / "generated",
        root / ".jobledger_cache",
        root / "src",
        root / "src" / "acme_shop",
    ]
    if subfolder:
        folders.append(root)  # the project's own folder: where git was asked for its base
    history = attacker_history(tmp_path)
    for folder in folders:
        plant(folder, evil, history, top / ".git")
    (root / ".jobledger_cache" / "CACHEDIR.TAG").write_text(
        "Signature: 8a477f597d28d172789f06886806bc55\n"
    )
    for folder in (root, root / "overlays", root / "generated", root / ".jobledger_cache"):
        (folder / ".gitattributes").write_text(ATTRIBUTES)
    request = PullRequest(top, root, base, markers, scratch)
    if forged_cache:
        forge_cache(request)
    git(top, "add", "-A", "-f")
    git(top, "commit", "-q", "-m", "pull request")
    return request


def forge_cache(request: PullRequest) -> None:
    """What an attacker commits: the tool's own snapshot of the pull request's tree, made on
    their machine, with the new job's rows removed and the head made consistent again (the
    content digest, or the HMAC under the attacker's own key)."""
    attacker = request.scratch / "attacker-key"
    done = request.run(
        sys.executable,
        "-m",
        "pytest_jobledger",
        "extract",
        "-o",
        "-",
        JOBLEDGER_KEY_DIR=str(attacker),
    )
    assert done.returncode == 0, done.stderr
    (snapshot,) = (request.root / ".jobledger_cache").glob("extract-*.json")
    head, body = snapshot.read_text().split("\n", 1)
    data = json.loads(body)
    data["scans"]["src/acme_shop/hostile.py"]["found"] = []
    body = json.dumps(data, sort_keys=True, separators=(",", ":"))
    meta = json.loads(head)
    from pytest_jobledger.extract import cache

    if "mac" in meta:
        from pytest_jobledger.extract import cachekey

        key = (attacker / cachekey.NAME).read_bytes()
        meta["mac"] = cachekey.sign(key, body.encode())
    else:
        meta["digest"] = cache.digest(body.encode())
    snapshot.write_text(f"{json.dumps(meta)}\n{body}\n")
    for stale in request.markers.iterdir():  # the attacker's own run is not the victim's
        stale.unlink()


def gate_script() -> str:
    action = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
    (step,) = [step for step in action["runs"]["steps"] if step.get("id") == "gate"]
    script: str = step["run"]
    return script


JOBLEDGER = (sys.executable, "-m", "pytest_jobledger")
PYTEST = (
    sys.executable,
    "-m",
    "pytest",
    "--jobledger",
    "-m",
    "jobledger",
    "--noconftest",
    "-p",
    "no:cacheprovider",
    "-q",
)


def run_route(request: PullRequest, route: str) -> subprocess.CompletedProcess[str]:
    if route == "check":
        return request.run(*JOBLEDGER, "check")
    if route == "check-base":
        return request.run(*JOBLEDGER, "check", "--base", request.base)
    if route == "diff":
        return request.run(*JOBLEDGER, "diff", "--base", request.base)
    if route == "pytest":
        return request.run(*PYTEST, f"--jobledger-base={request.base}", "overlays")
    assert route == "action"
    assert BASH is not None
    return request.run(
        BASH,
        "--noprofile",
        "--norc",
        "-eo",
        "pipefail",
        "-c",
        gate_script(),
        JOBLEDGER_VENV_PYTHON=sys.executable,
        JOBLEDGER_PYTEST_ARGS="",
        JOBLEDGER_SARIF_FILE=str(request.scratch / "gate.sarif"),
        RUNNER_TEMP=str(request.scratch),
    )


ROUTES = ["check", "check-base", "diff", "pytest", "action"]


@pytest.mark.skipif(BASH is None, reason="the planted programs are shell scripts")
@pytest.mark.parametrize("subfolder", [False, True], ids=["root-project", "subfolder-project"])
@pytest.mark.parametrize("route", ROUTES)
def test_no_program_a_planted_git_directory_names_runs(
    tmp_path: Path, route: str, subfolder: bool
) -> None:
    request = pull_request(tmp_path, subfolder)
    run_route(request, route)  # cold: the second run reads the content cache the first wrote
    done = run_route(request, route)
    output = done.stdout + done.stderr
    assert request.fired() == [], output
    if route == "action":  # the Action's cache is under RUNNER_TEMP, never the checkout's
        assert list(request.scratch.glob("jobledger-cache/extract-*.json")), output
        assert not list(request.root.glob(".jobledger_cache/extract-*.json")), output
    if route == "diff":
        assert done.returncode == 0, output
        assert NEW_JOB in output
        return
    assert done.returncode == 1, output
    assert NEW_JOB in output or (route == "action" and NEW_JOB in _sarif(request)), output
    if route in ("check-base", "pytest", "action"):
        assert "no base to review" not in output, output


def _sarif(request: PullRequest) -> str:
    path = request.scratch / "gate.sarif"
    return path.read_text() if path.is_file() else ""


@pytest.mark.skipif(BASH is None, reason="the planted programs are shell scripts")
@pytest.mark.parametrize("route", ["check", "pytest"])
def test_a_forged_committed_cache_hides_nothing(tmp_path: Path, route: str) -> None:
    """The snapshot the pull request commits hides its new job from extraction; this machine
    has another key, so the job is found, and (the ledger being the base's) it fails."""
    request = pull_request(tmp_path, subfolder=False, forged_cache=True)
    done = run_route(request, route)
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert NEW_JOB in output, output
    assert request.fired() == [], output


def test_the_action_keeps_the_cache_and_its_key_under_runner_temp(tmp_path: Path) -> None:
    """Whatever the job's environment names: the checkout's cache is never the Action's."""
    from pytest_jobledger.github.action import child_environment

    temp = tmp_path / "runner-temp"
    env = child_environment(
        {
            "PATH": "/bin",
            "RUNNER_TEMP": str(temp),
            "JOBLEDGER_CACHE_DIR": str(tmp_path / "checkout" / ".jobledger_cache"),
            "JOBLEDGER_KEY_DIR": str(tmp_path / "checkout" / "keys"),
        }
    )
    assert env["JOBLEDGER_CACHE_DIR"] == str(temp / "jobledger-cache")
    assert env["JOBLEDGER_KEY_DIR"] == str(temp / "jobledger-key")
