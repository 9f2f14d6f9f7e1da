"""Which files are scanned and which module name each gets."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_jobledger.config import DEFAULT_EXCLUDE
from pytest_jobledger.extract.discovery import is_excluded, iter_source_files, module_name


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
        ("build", True, True),
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
