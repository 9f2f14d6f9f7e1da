"""``list``, ``show`` and ``verdict`` answer the same bytes from their memos as without them.

Every case of ``tests/cases/memo/`` runs each command (text and ``--json``) in two twin copies
of the Celery example, one with its memos and one with ``--no-cache``, before and after the
case's edit, and compares exit code, stdout and stderr. End to end with real processes: after a
run, the next one on an unchanged tree imports neither the YAML and schema libraries, libcst nor
detect-secrets; a memo a pull request committed (signed with another key), a truncated or
altered one, is ignored.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import example

from pytest_jobledger.cli import main
from pytest_jobledger.core import redact

CASES = Path(__file__).resolve().parents[1] / "cases" / "memo"
JOB = "acme_shop.billing.tasks.capture_invoice"
COMMANDS: tuple[tuple[str, ...], ...] = (
    ("list",),
    ("list", "--json"),
    ("show", JOB),
    ("show", JOB, "--json"),
    ("verdict", JOB, "--action", "retry"),
    ("verdict", JOB, "--action", "retry", "--json"),
)
#: The digest of a verdict's own line of the trail: each trail's lines differ (its time, its
#: chain), memo or not, so the twins' digests are not compared.
TRAIL_LINE = re.compile(r'(recorded as line \d+ of \S+ \(sha256 |"sha256": ")[0-9a-f]+')
#: What a memo stands in for: none of it is imported when every memo holds.
HEAVY = ("ruamel", "yaml", "jsonschema", "detect_secrets", "libcst")


def apply(root: Path, edit: dict[str, Any]) -> None:
    for relative, old, new in edit.get("replace", []):
        path = root / relative
        text = path.read_text("utf-8")
        assert old in text, f"{old!r} is not in {relative}"
        path.write_text(text.replace(old, new, 1), "utf-8")
    for relative, text in edit.get("write", {}).items():
        (root / relative).write_text(text, "utf-8")
    for relative in edit.get("delete", []):
        (root / relative).unlink()
    # A file changed within a moment of a run is not remembered (its times could still hide a
    # second change): let the tree settle, so the memo path is the one exercised.
    time.sleep(0.25)


def answers(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *extra: str
) -> list[tuple[int, str, str]]:
    """Each command's exit code, stdout and stderr, run from ``root`` (paths shown alike)."""
    monkeypatch.chdir(root)
    found = []
    for command in COMMANDS:
        redact._redact.cache_clear()  # a result from an earlier run here is the memo's to give
        try:
            code = main([*command, *extra])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
        out, err = capsys.readouterr()
        if command[0] == "verdict":
            out = TRAIL_LINE.sub(r"\1...", out, count=1)
        found.append((code, out, err))
    return found


@pytest.mark.parametrize("name", sorted(path.name for path in CASES.iterdir() if path.is_dir()))
def test_the_memos_answer_what_the_full_path_answers(
    name: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    case = json.loads((CASES / name / "case.json").read_text("utf-8"))
    monkeypatch.setenv("JOBLEDGER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("JOBLEDGER_TODAY", "2026-01-15")
    memo, full = example("celery", tmp_path / "memo"), example("celery", tmp_path / "full")
    for root in (memo, full):
        apply(root, case.get("before", {}))
    assert answers(memo, capsys, monkeypatch) == answers(full, capsys, monkeypatch, "--no-cache")
    kinds = sorted(path.name.split("-")[0] for path in (tmp_path / "cache").glob("*.memo"))
    owners = ["owners"] if "before" in case else []
    assert kinds == sorted(["fresh", "overlay", "patterns", "redaction", *owners])
    for root in (memo, full):
        apply(root, case["edit"])
    after = answers(full, capsys, monkeypatch, "--no-cache")
    assert answers(memo, capsys, monkeypatch) == after, case["why"]
    # again: now from the memos this edit recorded
    assert answers(memo, capsys, monkeypatch) == answers(full, capsys, monkeypatch, "--no-cache")
    listed = after[0][1]
    assert ("is stale" in listed or "STALE" in listed) is case.get("stale", False), listed
    shown = after[2][1]
    assert ("[secret withheld" in shown) is case.get("withheld", False), shown
    assert "hunter2hunter2" not in "".join(out + err for _, out, err in after)


def jobledger(root: Path, *args: str, env: dict[str, str]) -> tuple[int, str, str, set[str]]:
    """One real ``jobledger`` process: exit code, stdout, stderr and what it imported."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "pytest_jobledger", *args],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=root,
    )
    lines = done.stderr.splitlines(keepends=True)
    imported = {line.rsplit("|", 1)[1].strip() for line in lines if line.startswith("import time:")}
    rest = "".join(line for line in lines if not line.startswith("import time:"))
    return done.returncode, done.stdout, rest, imported


def heavy(imported: set[str]) -> list[str]:
    return sorted(name for name in imported if name.split(".")[0] in HEAVY)


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """The Celery example with its cache folder inside the root, as a checkout has it."""
    root = example("celery", tmp_path / "shop")
    env = {
        **os.environ,
        "JOBLEDGER_TODAY": "2026-01-15",
        "JOBLEDGER_KEY_DIR": str(tmp_path / "key"),
    }
    env.pop("JOBLEDGER_CACHE_DIR", None)
    time.sleep(0.25)  # the copy settles (see apply)
    return root, env


def test_an_unchanged_tree_imports_no_parser_or_detector(
    project: tuple[Path, dict[str, str]],
) -> None:
    root, env = project
    assert heavy(jobledger(root, "list", "--json", env=env)[3])  # the first run reads everything
    for command in COMMANDS[::2]:
        first = jobledger(root, *command, env=env)
        again = jobledger(root, *command, env=env)
        assert heavy(again[3]) == [], command
        if command[0] != "verdict":  # a verdict's text names its own line of the trail
            assert again[:3] == first[:3]
    no_cache = jobledger(root, "list", "--no-cache", env=env)
    assert heavy(no_cache[3])


def _other_key(root: Path, env: dict[str, str], folder: Path) -> None:
    """The memos a pull request would commit: made on another machine, with another key."""
    shutil.rmtree(folder)
    jobledger(root, "list", env={**env, "JOBLEDGER_KEY_DIR": str(root.parent / "their-key")})


def _truncated(root: Path, env: dict[str, str], folder: Path) -> None:
    for memo in folder.glob("*.memo"):
        memo.write_bytes(memo.read_bytes()[:-7])


def _altered(root: Path, env: dict[str, str], folder: Path) -> None:
    """One byte of each payload changed (the overlay's pickle says another owner)."""
    for memo in folder.glob("*.memo"):
        data = memo.read_bytes()
        memo.write_bytes(data.replace(b"billing-oncall", b"billing-oncalL"))


def _foreign_file(root: Path, env: dict[str, str], folder: Path) -> None:
    for memo in folder.glob("*.memo"):
        memo.write_bytes(b"not a memo\n")


@pytest.mark.parametrize(
    "spoil",
    [_other_key, _truncated, _altered, _foreign_file],
    ids=["signed-with-another-key", "truncated", "altered", "not-a-memo"],
)
def test_a_memo_not_signed_by_this_machine_for_these_inputs_is_ignored(
    project: tuple[Path, dict[str, str]], spoil: Any
) -> None:
    root, env = project
    first = jobledger(root, "show", JOB, env=env)
    folder = root / ".jobledger_cache"
    assert sorted(path.name.split("-")[0] for path in folder.glob("*.memo")) == [
        "fresh",
        "overlay",
        "patterns",
        "redaction",
    ]
    spoil(root, env, folder)
    after = jobledger(root, "show", JOB, env=env)
    assert heavy(after[3]), "a memo this machine did not sign was trusted"
    assert after[:3] == first[:3]


def test_no_cache_neither_reads_nor_writes_a_memo(project: tuple[Path, dict[str, str]]) -> None:
    root, env = project
    for command in COMMANDS[::2]:
        code, _, err, imported = jobledger(root, *command, "--no-cache", env=env)
        assert code in (0, 1, 3), err
        assert heavy(imported)
    assert list((root / ".jobledger_cache").glob("*.memo")) == []


class _Planted:
    """What a payload signed with a stolen key might hold: a call of something that runs."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (os.mkdir, (str(self.marker),))


def test_a_signed_memo_is_read_into_records_never_run(
    project: tuple[Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even a memo signed with this machine's key (as if the key were stolen) is read into this
    package's records only: a payload naming any other callable is ignored, and the overlay is
    parsed again, as without a memo."""
    from pytest_jobledger.memo import parsed
    from pytest_jobledger.overlay.model import Overlay
    from pytest_jobledger.project import load_config

    root, env = project
    monkeypatch.setenv("JOBLEDGER_KEY_DIR", env["JOBLEDGER_KEY_DIR"])
    monkeypatch.delenv("JOBLEDGER_CACHE_DIR", raising=False)
    config = load_config(root=root)
    raw = (root / "overlays" / "job_policy.yaml").read_bytes()
    marker = root.parent / "ran"
    parsed.remember(config, "overlay", raw, "overlays/job_policy.yaml", _Planted(marker))
    assert parsed.recall(config, "overlay", raw, "overlays/job_policy.yaml", Overlay) is None
    assert not marker.exists()
    kept = Overlay(path="overlays/job_policy.yaml")
    parsed.remember(config, "overlay", raw, "overlays/job_policy.yaml", kept)
    assert parsed.recall(config, "overlay", raw, "overlays/job_policy.yaml", Overlay) == kept
