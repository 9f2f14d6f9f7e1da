"""Which files are scanned and which module name each gets."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pytest_jobledger.extract import extract_ledger
from pytest_jobledger.extract.discovery import (
    is_excluded,
    iter_source_files,
    module_name,
    tool_folder,
)
from pytest_jobledger.ledger.model import Pattern
from pytest_jobledger.project import DEFAULT_EXCLUDE, load_config


@pytest.mark.parametrize(
    ("path", "packages", "expected"),
    [
        (
            "src/acme/billing/tasks.py",
            {"src/acme", "src/acme/billing"},
            ("acme.billing.tasks", False),
        ),
        ("src/acme/__init__.py", {"src/acme"}, ("acme", True)),
        ("acme/tasks.py", {"acme"}, ("acme.tasks", False)),
        ("tasks.py", set(), ("tasks", False)),
        ("scripts/cron.py", set(), ("scripts.cron", False)),
        ("src/worker.py", set(), ("worker", False)),
        # a folder without __init__.py above a package is not part of the name
        ("services/billing/acme/tasks.py", {"services/billing/acme"}, ("acme.tasks", False)),
    ],
)
def test_module_names(path: str, packages: set[str], expected: tuple[str, bool]) -> None:
    assert module_name(path, packages.__contains__) == expected


@pytest.mark.parametrize(
    ("path", "is_dir", "excluded"),
    [
        ("app/migrations", True, True),
        ("app/migrations/0001_initial.py", False, True),
        ("app/tasks.py", False, False),
        (".venv", True, True),
        ("src/pkg/__pycache__", True, True),
        ("node_modules", True, True),
        ("build", True, False),  # a build output is recognised by what it holds (tool_folder)
        ("src/builder.py", False, False),
    ],
)
def test_excludes(path: str, is_dir: bool, excluded: bool) -> None:
    patterns = (*DEFAULT_EXCLUDE, "**/migrations/**")
    assert is_excluded(path, patterns, is_dir=is_dir) is excluded


def test_walk_is_sorted_pruned_and_survives_symlink_loops(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "b.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("")
    (tmp_path / ".venv" / "lib").mkdir(parents=True)
    (tmp_path / ".venv" / "lib" / "celery.py").write_text("")
    (tmp_path / "pkg" / "loop").symlink_to(tmp_path / "pkg", target_is_directory=True)
    files = list(iter_source_files(tmp_path, ["."], DEFAULT_EXCLUDE))
    assert [f.rel_path for f in files] == ["pkg/__init__.py", "pkg/a.py", "pkg/b.py"]
    assert [f.module for f in files] == ["pkg", "pkg.a", "pkg.b"]


def test_overlapping_paths_scan_each_file_once(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "jobs.py").write_text("")
    files = list(iter_source_files(tmp_path, [".", "src", "src/jobs.py"], ()))
    assert [f.rel_path for f in files] == ["src/jobs.py"]


JOB = 'from celery import shared_task\n\n\n@shared_task\ndef refund(order_id):\n    """Refund."""\n'


def test_a_folder_that_cannot_be_listed_is_a_located_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Running as root can read any folder, so the refusal is simulated where os.walk lists."""
    (tmp_path / "billing").mkdir()
    (tmp_path / "billing" / "tasks.py").write_text(JOB)
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "tasks.py").write_text(JOB)
    listing = os.scandir

    def scandir(path: Any) -> Any:
        if Path(path).name == "secret":
            raise PermissionError(13, "Permission denied", str(path))
        return listing(path)

    monkeypatch.setattr(os, "scandir", scandir)
    ledger = extract_ledger(load_config(root=tmp_path))
    assert [job.id for job in ledger.jobs] == ["billing.tasks.refund"]
    [problem] = ledger.unsupported
    assert (problem.path, problem.line, problem.pattern) == ("secret", 1, Pattern.UNREADABLE)
    assert "Permission denied" in problem.message


@pytest.mark.skipif(os.name == "nt" or os.geteuid() == 0, reason="needs POSIX permissions")
def test_an_unreadable_folder_is_reported_not_skipped(tmp_path: Path) -> None:
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "tasks.py").write_text(JOB)
    (tmp_path / "secret").chmod(0)
    try:
        ledger = extract_ledger(load_config(root=tmp_path))
    finally:
        (tmp_path / "secret").chmod(0o755)
    assert [(item.path, item.pattern) for item in ledger.unsupported] == [
        ("secret", Pattern.UNREADABLE)
    ]


@pytest.mark.skipif(sys.platform != "linux", reason="needs a file system that allows any bytes")
def test_a_file_name_that_is_not_utf8_is_reported_with_an_escaped_name(tmp_path: Path) -> None:
    (tmp_path / "good.py").write_text(JOB)
    with open(os.path.join(os.fsencode(tmp_path), b"caf\xe9.py"), "w") as handle:
        handle.write(JOB)
    ledger = extract_ledger(load_config(root=tmp_path))
    ledger.dumps().encode("utf-8")
    assert [job.id for job in ledger.jobs] == ["good.refund"]
    assert [(item.path, item.pattern) for item in ledger.unsupported] == [
        ("caf\\xe9.py", Pattern.UNREADABLE)
    ]


SHARED_JOB = 'from celery import shared_task\n\n@shared_task\ndef run():\n    """A job."""\n'


def _gitignored_tree(root: Path, respect: bool) -> Path:
    flag = "true" if respect else "false"
    (root / "pyproject.toml").write_text(f"[tool.jobledger]\nrespect_gitignore = {flag}\n")
    (root / ".gitignore").write_text("scratch/\n*_gen.py\n!keep_gen.py\n")
    for rel in ("app/tasks.py", "app/scratch/tasks.py", "app/report_gen.py", "app/keep_gen.py"):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(SHARED_JOB)
    (root / "app" / "local").mkdir()
    (root / "app" / "local" / ".gitignore").write_text("*.py\n")
    (root / "app" / "local" / "mine.py").write_text(SHARED_JOB)
    return root


@pytest.mark.parametrize("respect", [True, False])
def test_respect_gitignore_leaves_out_what_git_ignores(tmp_path: Path, respect: bool) -> None:
    from pytest_jobledger.extract import extract_ledger
    from pytest_jobledger.project import load_config

    ledger = extract_ledger(load_config(root=_gitignored_tree(tmp_path, respect)))
    paths = sorted(job.path for job in ledger.jobs)
    if respect:
        assert paths == ["app/keep_gen.py", "app/tasks.py"]
    else:
        assert paths == [
            "app/keep_gen.py",
            "app/local/mine.py",
            "app/report_gen.py",
            "app/scratch/tasks.py",
            "app/tasks.py",
        ]


@pytest.mark.parametrize(
    ("patterns", "path", "excluded"),
    [
        (("reports/",), "src/shop/reports/tasks.py", True),
        (("src/shop/[r]eports/**",), "src/shop/reports/tasks.py", True),
        (("src/shop/[r]eports/**",), "src/shop/rep/tasks.py", False),
        (("*_gen.py", "!keep_gen.py"), "app/keep_gen.py", False),
        (("*_gen.py", "!keep_gen.py"), "app/other_gen.py", True),
    ],
)
def test_exclude_patterns_mean_what_they_mean_in_gitignore(
    patterns: tuple[str, ...], path: str, excluded: bool
) -> None:
    assert is_excluded(path, patterns) is excluded


def test_tool_folders_are_known_by_what_they_hold_and_never_hide_a_package(tmp_path: Path) -> None:
    """A stray ``pyvenv.cfg`` or ``CACHEDIR.TAG`` (or a FIFO so named) hides no package; a real
    virtualenv of any name is skipped."""
    (tmp_path / "src" / "shop").mkdir(parents=True)
    (tmp_path / "src" / "shop" / "__init__.py").write_text("")
    (tmp_path / "src" / "shop" / "tasks.py").write_text("")
    (tmp_path / "src" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (tmp_path / "envs" / "py312" / "lib").mkdir(parents=True)
    (tmp_path / "envs" / "py312" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (tmp_path / "envs" / "py312" / "lib" / "celery.py").write_text("")
    (tmp_path / "scratch").mkdir()
    (tmp_path / "scratch" / "job.py").write_text("")
    os.mkfifo(tmp_path / "scratch" / "CACHEDIR.TAG")
    (tmp_path / "untagged").mkdir()
    (tmp_path / "untagged" / "CACHEDIR.TAG").write_text("not the signature\n")
    (tmp_path / "untagged" / "job.py").write_text("")
    files = [f.rel_path for f in iter_source_files(tmp_path, ["."], DEFAULT_EXCLUDE)]
    assert files == [
        "scratch/job.py",
        "src/shop/__init__.py",
        "src/shop/tasks.py",
        "untagged/job.py",
    ]
    assert tool_folder(tmp_path / "envs" / "py312") == "a virtualenv"
    assert tool_folder(tmp_path / "src") is None


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
@pytest.mark.parametrize("below", ["", "services/shop"])
def test_respect_gitignore_never_leaves_out_a_tracked_file(tmp_path: Path, below: str) -> None:
    """As git: a tracked file stays whatever a .gitignore says; an ignored folder kept for a
    tracked file gives its tracked files only; an untracked ignored file stays out (real git)."""
    from pytest_jobledger.extract import extract_ledger
    from pytest_jobledger.project import load_config

    top = tmp_path / "repo"
    root = top / below if below else top
    (root / "app" / "gen").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.jobledger]\nrespect_gitignore = true\n")
    (root / ".gitignore").write_text("payouts.py\ngen/\nscratch.py\n")
    for rel in ("app/tasks.py", "app/payouts.py", "app/gen/refunds.py", "app/gen/local.py"):
        (root / rel).write_text(SHARED_JOB)
    (root / "app" / "scratch.py").write_text(SHARED_JOB)
    prefix = f"{below}/" if below else ""
    _git(top, "init", "-q")
    _git(top, "add", "-f", "--", f"{prefix}app")
    _git(top, "rm", "-q", "--cached", "--", f"{prefix}app/gen/local.py", f"{prefix}app/scratch.py")
    ledger = extract_ledger(load_config(root=root))
    assert sorted(job.path for job in ledger.jobs) == [
        "app/gen/refunds.py",
        "app/payouts.py",
        "app/tasks.py",
    ]


def _git(cwd: Path, *args: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)
