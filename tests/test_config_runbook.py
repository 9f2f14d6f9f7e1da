"""The runbook's and the draft lane's keys in [tool.jobledger]: defaults, and located errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_jobledger.core.errors import ConfigError
from pytest_jobledger.project import DEFAULT_DRAFTS, DEFAULT_RUNBOOK, load_config


def _load(tmp_path: Path, body: str) -> object:
    (tmp_path / "pyproject.toml").write_text(body, encoding="utf-8")
    return load_config(cwd=tmp_path)


def test_defaults(tmp_path: Path) -> None:
    config = load_config(cwd=tmp_path)
    assert config.runbook.path is None  # not configured: no runbook-fresh item
    assert config.runbook_path == tmp_path.resolve() / DEFAULT_RUNBOOK
    assert config.runbook.group_by == "queue"
    assert config.drafts_path == tmp_path.resolve() / DEFAULT_DRAFTS
    assert config.drafts.command is None
    assert config.runbook.title is None


def test_configured(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "acme"\n[tool.jobledger]\nrunbook = "site/jobs.md"\n'
        'runbook_group_by = "owner"\ndrafts = "drafts.yaml"\n'
        'draft_command = "my-model --max-words 60"\n',
        encoding="utf-8",
    )
    config = load_config(cwd=tmp_path)
    assert (config.runbook.title, config.runbook.path, config.runbook.group_by) == (
        "acme",
        "site/jobs.md",
        "owner",
    )
    assert (config.drafts.path, config.drafts.command) == ("drafts.yaml", "my-model --max-words 60")


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ('runbook = "/etc/jobs.md"', "runbook: '/etc/jobs.md' must be relative"),
        ('runbook = "../jobs.md"', "runbook: '../jobs.md' must be relative"),
        ('runbook = ""', "runbook: must be a non-empty string"),
        ('drafts = "../drafts.yaml"', "drafts: '../drafts.yaml' must be relative"),
        ('runbook_group_by = "team"', "runbook_group_by: must be one of 'queue', 'module'"),
        ("draft_command = 3", "draft_command: must be a string"),
        ('draft_command = "model \\"unclosed"', "draft_command: cannot be split"),
        ('draft_command = "   "', "draft_command: must name a program"),
        ('runbok = "docs/jobs.md"', "runbok: unknown key; did you mean 'runbook'?"),
    ],
)
def test_mistakes_name_the_key(tmp_path: Path, body: str, says: str) -> None:
    with pytest.raises(ConfigError, match=None) as info:
        _load(tmp_path, f"[tool.jobledger]\n{body}\n")
    assert says in str(info.value)


def test_a_symlinked_runbook_that_leaves_the_root_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "root"
    root.mkdir()
    (root / "docs").symlink_to(outside)
    with pytest.raises(ConfigError) as info:
        _load(root, '[tool.jobledger]\nrunbook = "docs/jobs.md"\n')
    assert "runbook: 'docs/jobs.md' is not followed" in str(info.value)
