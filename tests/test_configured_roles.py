"""Configured paths and their roles: one table of hostile
``[tool.jobledger]`` values, each a located error (``pyproject.toml:LINE: [tool.jobledger] KEY:``),
exit 2, no traceback and not one byte written, from every command that writes.

A pull request that sets ``ledger`` to the overlay's path, ``audit_log`` to ``pyproject.toml``,
``ledger`` to a source file or into ``.git/hooks`` would have a maintainer's routine
``jobledger extract`` (or ``schema``, ``render``, ``verdict``) wipe the signed policy, corrupt the
configuration, overwrite code or plant a hook. Malformed values (a NUL byte, an exclude pattern
the ``.gitignore`` syntax cannot hold, a broken URL, TOML nested too deeply) crashed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_jobledger.cli import main

TASKS = '''\
from celery import shared_task


@shared_task(queue="billing")
def capture_invoice(invoice_id):
    """Charge it."""
'''
OVERLAY = 'jobs:\n  billing.tasks.capture_invoice:\n    idempotent: "yes"\n'

#: (key, TOML value, what the message says)
CASES: list[tuple[str, str, str]] = [
    # -- under .git, in any spelling
    ("ledger", '".git/hooks/pre-commit"', "belongs to git"),
    ("schema", '".GIT/x"', "belongs to git"),
    ("runbook", '"docs/.git./hooks/post-checkout"', "belongs to git"),
    ("drafts", '".Git/config"', "belongs to git"),
    ("overlay", '".git/job_policy.yaml"', "belongs to git"),
    ("baseline", '".git /info/baseline.json"', "belongs to git"),
    ("audit_log", '".git/audit.ndjson"', "belongs to git"),
    ("cache_dir", '".git/cache"', "belongs to git"),
    ("owners", '".git/owners.yaml"', "belongs to git"),
    ("allowed_signers", '".git/allowed_signers"', "belongs to git"),
    ("paths", '[".git"]', "belongs to git"),
    # -- a NUL byte in any path key
    ("ledger", '"gen\\u0000/ledger.json"', "NUL byte"),
    ("cache_dir", '"cache\\u0000"', "NUL byte"),
    ("owners", '"owners\\u0000.yaml"', "NUL byte"),
    ("allowed_signers", '"signers\\u0000"', "NUL byte"),
    ("schema", '"schema\\u0000.json"', "NUL byte"),
    ("audit_log", '"audit\\u0000.ndjson"', "NUL byte"),
    ("runbook", '"docs/jobs\\u0000.md"', "NUL byte"),
    ("drafts", '"drafts\\u0000.yaml"', "NUL byte"),
    ("baseline", '"baseline\\u0000.json"', "NUL byte"),
    ("paths", '["billing\\u0000"]', "NUL byte"),
    ("exclude", '["a\\u0000b"]', "NUL byte"),
    # -- values that crashed
    ("exclude", '["\\\\"]', "is not a .gitignore-style pattern"),
    ("exclude", '["!"]', "is not a .gitignore-style pattern"),
    ("exclude", '["[z-a]"]', "is not a .gitignore-style pattern"),
    ("schema_url", '"https://[::1"', "is not a URL"),
    # -- two roles, one file
    ("ledger", '"overlays/job_policy.yaml"', "is the same file as overlay"),
    ("schema", '"overlays/job_policy.yaml"', "is the same file as overlay"),
    ("runbook", '"overlays/job_policy.yaml"', "is the same file as overlay"),
    ("audit_log", '"overlays/job_policy.yaml"', "is the same file as overlay"),
    ("audit_log", '"pyproject.toml"', "is the same file as the configuration file"),
    ("ledger", '"pyproject.toml"', "is the same file as the configuration file"),
    ("baseline", '"generated/job_ledger.json"', "is the same file as ledger"),
    ("drafts", '"docs/jobs.md"', "is the same file as runbook"),
    ("owners", '"overlays/job_policy.yaml"', "is the same file as overlay"),
    ("ledger", '"Overlays/Job_Policy.YAML"', "is the same file as overlay"),
    ("ledger", '"./overlays//job_policy.yaml"', "is the same file as overlay"),
    ("ledger", '".jobledger_cache/ledger.json"', "inside (or around) cache_dir"),
    ("cache_dir", '"overlays"', "inside (or around)"),
    # -- a written role that is a source
    ("ledger", '"billing/tasks.py"', "is a Python source"),
    ("schema", '"billing/__init__.py"', "is a Python source"),
    ("runbook", '"docs/jobs.pyi"', "is a Python source"),
    ("baseline", '"billing/known.PY"', "is a Python source"),
]
WRITING_COMMANDS = ["extract", "schema", "stub", "render", "baseline", "check"]


def _project(tmp_path: Path, line: str) -> Path:
    root = tmp_path / "project"
    (root / "billing").mkdir(parents=True)
    (root / "billing" / "__init__.py").write_text("")
    (root / "billing" / "tasks.py").write_text(TASKS)
    (root / "overlays").mkdir()
    (root / "overlays" / "job_policy.yaml").write_text(OVERLAY)
    (root / ".git" / "hooks").mkdir(parents=True)
    (root / ".git" / "hooks" / "pre-commit").write_text("#!/bin/sh\n")
    (root / "pyproject.toml").write_text(f'[project]\nname = "shop"\n\n[tool.jobledger]\n{line}\n')
    return root


def _tree(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes() if path.is_file() else b"<folder>"
        for path in sorted(root.rglob("*"))
    }


@pytest.mark.parametrize("command", WRITING_COMMANDS)
@pytest.mark.parametrize(
    ("key", "value", "says"), CASES, ids=[f"{key}={value}" for key, value, _ in CASES]
)
def test_a_bad_path_role_is_a_located_error_and_nothing_is_written(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: str,
    key: str,
    value: str,
    says: str,
) -> None:
    root = _project(tmp_path, f"{key} = {value}")
    before = _tree(root)
    assert main([command, "--root", str(root)]) == 2
    err = capsys.readouterr().err
    assert f"pyproject.toml:5: [tool.jobledger] {key}:" in err
    assert says in err
    assert "Traceback" not in err
    assert _tree(root) == before


def test_toml_nested_too_deeply_is_a_located_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path, "exclude = " + "[" * 5000 + "]" * 5000)
    before = _tree(root)
    assert main(["extract", "--root", str(root)]) == 2
    err = capsys.readouterr().err
    assert "pyproject.toml:" in err
    assert "the TOML is nested too deeply" in err
    assert "Traceback" not in err
    assert _tree(root) == before


@pytest.mark.parametrize(
    "line",
    [
        'ledger = "out/ledger.json"\nschema = "out/schema.json"',
        'runbook = "docs/runbook.md"\ndrafts = "docs/drafts.yaml"',
        'cache_dir = ".cache/jobledger"',
        'ledger = ".github/job_ledger.json"',
        'ledger = "gitdir/.gitkeep.json"',
    ],
)
def test_distinct_roles_are_accepted(tmp_path: Path, line: str) -> None:
    root = _project(tmp_path, line)
    assert main(["extract", "--root", str(root)]) == 0


@pytest.mark.parametrize(
    "value", ["sqlite:///var/audit.db", "postgresql://host/db", "file://x", "s3+x.y-z://b"]
)
def test_a_url_is_not_a_path(value: str) -> None:
    from pytest_jobledger.project import is_url

    assert is_url(value)


@pytest.mark.parametrize("value", ["audit.ndjson", "c:/audit", "://b", "sqlite:x"])
def test_a_path_is_not_a_url(value: str) -> None:
    from pytest_jobledger.project import is_url

    assert not is_url(value)


def test_the_table_names_every_written_role() -> None:
    from pytest_jobledger.project import WRITTEN_ROLES

    named = {key for key, _, says in CASES if "belongs to git" in says}
    assert set(WRITTEN_ROLES) <= named
