"""Human output names files from the current folder, so ``path:line`` opens from where
``jobledger`` ran: from a subfolder, and with ``--root`` from outside the project. Machine formats
keep their convention: JSON, SARIF and GitHub annotations stay relative to the project root.

Each run is a real ``jobledger`` process in a real folder; every ``path:line`` it prints must
name an existing file, seen from that process's folder, with at least that many lines.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from repo_files import copy_tracked

from pytest_jobledger.cli import main
from pytest_jobledger.core.paths import Shown

CASES = Path(__file__).resolve().parents[1] / "cases" / "gate"

#: A place at the start of a line (after any indent), or in a fact's ``[signed path:line]``.
PLACE = re.compile(r"(?:^\s*|\[\w+(?:-\w+)? )(?P<path>[^\s:\[\]]+):(?P<line>\d+)(?=[:\]])", re.M)


def project(tmp_path: Path, case: str) -> Path:
    """A copy of a gate case with its ledger extracted, under ``tmp_path/outer/proj`` (a
    subfolder ``sub`` inside it; ``tmp_path/outer/elsewhere`` outside it)."""
    root = tmp_path / "outer" / "proj"
    copy_tracked(CASES / case, root)
    (root / "sub").mkdir()
    (tmp_path / "outer" / "elsewhere").mkdir()
    assert main(["extract", "--root", str(root)]) in (0, 1)
    return root


def jobledger(cwd: Path, root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_jobledger", *args, "--root", str(root), "--color", "never"],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def places(text: str) -> list[tuple[str, int]]:
    return [(found["path"], int(found["line"])) for found in PLACE.finditer(text)]


def assert_places_open_from(cwd: Path, text: str, minimum: int = 1) -> list[str]:
    """Every ``path:line`` in ``text`` is a file seen from ``cwd`` with that line in it."""
    found = places(text)
    assert len(found) >= minimum, text
    for path, line in found:
        target = cwd / path
        assert target.is_file(), (path, cwd, text)
        assert 1 <= line <= len(target.read_text("utf-8").splitlines()) + 1, (path, line)
    return [path for path, _ in found]


#: (case, command): a finding in the overlay, one in the source, a card with signed facts.
RUNS = [
    ("check_grouping", ("check",)),
    ("unsupported_pattern", ("check",)),
    ("unsupported_pattern", ("extract",)),
    ("unknown_key", ("show", "billing.tasks.send_receipt")),
    ("check_grouping", ("render",)),
]
WHERE = {"sub": ("sub", "../"), "outside": ("../elsewhere", "../proj/")}


@pytest.mark.parametrize("where", sorted(WHERE))
@pytest.mark.parametrize(("case", "command"), RUNS, ids=[f"{c}-{cmd[0]}" for c, cmd in RUNS])
def test_places_open_from_the_current_folder(
    where: str, case: str, command: tuple[str, ...], tmp_path: Path
) -> None:
    root = project(tmp_path, case)
    folder, prefix = WHERE[where]
    cwd = (root / folder).resolve()
    done = jobledger(cwd, root, *command)
    assert done.returncode in (0, 1), done.stderr
    text = done.stdout + done.stderr
    shown = assert_places_open_from(cwd, text)
    assert all(path.startswith(prefix) for path in shown), shown
    if where == "sub":  # run from the root, the same places, relative to it as before
        at_root = jobledger(root, root, *command)
        assert sorted(places(at_root.stdout + at_root.stderr)) == sorted(
            (path.removeprefix(prefix), line) for path, line in places(text)
        )


def test_next_steps_name_the_overlay_from_the_current_folder(tmp_path: Path) -> None:
    root = project(tmp_path, "unsigned_no_entry")
    done = jobledger(root / "sub", root, "check")
    assert "adds an entry to ../overlays/job_policy.yaml for the 1 job" in done.stdout


@pytest.mark.parametrize("fmt", ["json", "sarif", "github"])
def test_machine_formats_keep_paths_relative_to_the_root(fmt: str, tmp_path: Path) -> None:
    root = project(tmp_path, "check_grouping")
    outputs = {
        folder: jobledger((root / folder).resolve(), root, "check", "--format", fmt).stdout
        for folder in (".", "sub", "../elsewhere")
    }
    assert outputs["sub"] == outputs["."] == outputs["../elsewhere"]
    if fmt == "json":
        assert {row["path"] for row in json.loads(outputs["."])} == {
            "billing/tasks.py",
            "overlays/job_policy.yaml",
        }


def test_list_json_keeps_root_relative_sources(tmp_path: Path) -> None:
    root = project(tmp_path, "signed_clean")
    done = jobledger(root / "sub", root, "list", "--json")
    document = json.loads(done.stdout)
    assert document["overlay"]["path"] == "overlays/job_policy.yaml"
    text = jobledger(root / "sub", root, "list").stdout
    assert text.splitlines()[1].startswith("overlay: ../overlays/job_policy.yaml ")


@pytest.mark.parametrize(
    ("recorded", "cwd", "expected"),
    [
        ("overlays/job_policy.yaml", "proj", "overlays/job_policy.yaml"),
        ("overlays/job_policy.yaml", "proj/sub", "../overlays/job_policy.yaml"),
        ("overlays/job_policy.yaml", "elsewhere", "../proj/overlays/job_policy.yaml"),
        ("overlays/job_policy.yaml", "proj/overlays", "job_policy.yaml"),
        ("../shared.toml", "proj/sub", "../../shared.toml"),
    ],
)
def test_shown_paths(recorded: str, cwd: str, expected: str) -> None:
    base = Path("/srv/outer")
    shown = Shown(base / "proj", base / cwd)
    assert shown.path(recorded) == expected
    assert shown.location(f"{recorded}:6") == f"{expected}:6"
    assert shown.location("the code") == "the code"
    assert Shown(base / "proj", None).path(recorded) == recorded
