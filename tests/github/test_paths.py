"""Annotations name files relative to GITHUB_WORKSPACE, from where each file really is."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_jobledger.findings import Finding
from pytest_jobledger.github.commands import annotation, display_path

from ._commands import parse


def test_a_project_in_a_subdirectory_annotates_the_workspace_path(
    make_finding: Callable[..., Finding], tmp_path: Path
) -> None:
    workspace = tmp_path / "repo"
    root = workspace / "services" / "billing"
    root.mkdir(parents=True)
    finding = make_finding(path="overlays/job_policy.yaml", line=4)
    command = parse(annotation(finding, root, workspace))
    assert command is not None
    assert command.properties["file"] == "services/billing/overlays/job_policy.yaml"
    assert command.properties["line"] == "4"


def test_a_symlinked_project_folder_annotates_the_real_file(
    make_finding: Callable[..., Finding], tmp_path: Path
) -> None:
    workspace = tmp_path / "repo"
    real = workspace / "services" / "billing"
    real.mkdir(parents=True)
    link = workspace / "billing"
    try:
        os.symlink(real, link, target_is_directory=True)
    except OSError:  # pragma: no cover - platforms without symlinks
        pytest.skip("symlinks are not available here")
    finding = make_finding(path="src/acme/tasks.py")
    assert display_path(finding, link, workspace) == "services/billing/src/acme/tasks.py"


def test_without_a_workspace_the_root_relative_path_is_kept(
    make_finding: Callable[..., Finding], tmp_path: Path
) -> None:
    finding = make_finding(path="src/acme/tasks.py")
    assert display_path(finding, tmp_path, None) == "src/acme/tasks.py"
    assert display_path(finding, tmp_path, tmp_path / "elsewhere") == "src/acme/tasks.py"


def test_a_finding_without_a_file_has_no_file_or_line(
    make_finding: Callable[..., Finding], tmp_path: Path
) -> None:
    command = parse(annotation(make_finding(path="", line=0), tmp_path, tmp_path))
    assert command is not None
    assert set(command.properties) == {"title"}
