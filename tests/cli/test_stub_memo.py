"""The stub's memo of a run with nothing to do, end to end with real ``jobledger``
processes: the second such run reads no YAML (it never imports ruamel.yaml, seen with
``python -X importtime``) and prints the same bytes; every changed input, a corrupt or forged memo
and ``--no-cache`` take the full path, and a memo never hides work to do.

No timing is asserted: whether ruamel.yaml was imported is what tells the two paths apart.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_jobledger.extract import extract_ledger
from pytest_jobledger.project import load_config
from pytest_jobledger.project.files import read_file
from pytest_jobledger.stub.memo import open_memo

PYPROJECT = '[tool.jobledger]\npaths = ["src"]\nrequired_cells = ["idempotent"]\n'
TASKS = """\
from celery import shared_task


@shared_task
def capture(order_id: str) -> None:
    \"\"\"Capture the payment of one order.\"\"\"


@shared_task
def refund(order_id: str) -> None:
    \"\"\"Refund one order.\"\"\"
"""
OVERLAY = """\
# Job policy overlay.
jobs:
  shop.tasks.capture:  # signed by billing
    idempotent: "yes"
  shop.tasks.refund:
    idempotent: "no"
"""
#: An editor line naming a path on one machine: the stub prints a hint, memo or not.
STALE_SCHEMA = "# yaml-language-server: $schema=/home/someone/venv/site-packages/x.json\n"
OPTIONS = {"renames": False, "rename": None, "quote_yes_no": False, "format": "text"}


@dataclass(frozen=True)
class Run:
    code: int
    stdout: str
    stderr: str
    """What the run wrote to stderr, without ``-X importtime``'s lines."""
    imported: frozenset[str]


def jobledger(root: Path, *args: str, cache: Path | None) -> Run:
    """One real ``jobledger`` process, with the modules it imported."""
    env = dict(os.environ)
    if cache is None:
        env.pop("JOBLEDGER_CACHE_DIR", None)
    else:
        env["JOBLEDGER_CACHE_DIR"] = str(cache)
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "pytest_jobledger", *args, "--root", str(root)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=root,
    )
    lines = done.stderr.splitlines(keepends=True)
    imported = frozenset(
        line.rsplit("|", 1)[1].strip() for line in lines if line.startswith("import time:")
    )
    rest = "".join(line for line in lines if not line.startswith("import time:"))
    return Run(done.returncode, done.stdout, rest, imported)


def parsed_yaml(run: Run) -> bool:
    """Whether the run imported ruamel.yaml (or its namespace package): the stub's parser."""
    return any(name == "ruamel" or name.startswith("ruamel.") for name in run.imported)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "src" / "shop").mkdir(parents=True)
    (root / "pyproject.toml").write_text(PYPROJECT)
    (root / "src" / "shop" / "__init__.py").write_text("")
    (root / "src" / "shop" / "tasks.py").write_text(TASKS)
    (root / "overlays").mkdir()
    (root / "overlays" / "job_policy.yaml").write_text(OVERLAY)
    return root


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def memo_files(cache: Path) -> list[Path]:
    return sorted(cache.glob("stub-*.json"))


@pytest.mark.parametrize("stale_schema", [False, True], ids=["plain", "stale-schema-line"])
@pytest.mark.parametrize("check", [False, True], ids=["stub", "check"])
def test_nothing_to_do_twice_reads_no_yaml_and_says_the_same_bytes(
    project: Path, cache: Path, check: bool, stale_schema: bool
) -> None:
    if stale_schema:
        overlay = project / "overlays" / "job_policy.yaml"
        overlay.write_text(STALE_SCHEMA + overlay.read_text())
    args = ("stub", "--check") if check else ("stub",)
    full = jobledger(project, *args, cache=cache)
    assert full.code == 0, full.stderr
    assert full.stdout.endswith("up to date, nothing to add\n")
    assert ("hint: the $schema line" in full.stdout) is stale_schema
    assert parsed_yaml(full)
    assert len(memo_files(cache)) == 1
    memo = jobledger(project, *args, cache=cache)
    assert not parsed_yaml(memo)
    assert (memo.code, memo.stdout, memo.stderr) == (full.code, full.stdout, full.stderr)


def test_the_memo_of_a_plain_run_answers_check_too(project: Path, cache: Path) -> None:
    """``--check`` is not an input: with nothing to do both say the same and exit 0."""
    jobledger(project, "stub", cache=cache)
    check = jobledger(project, "stub", "--check", cache=cache)
    assert (check.code, parsed_yaml(check)) == (0, False)


def _edit(relative: str, old: str, new: str) -> Callable[[Path, Path], None]:
    def edit(root: Path, cache: Path) -> None:
        path = root / relative
        text = path.read_text()
        assert old in text
        path.write_text(text.replace(old, new, 1))

    return edit


def _corrupt(root: Path, cache: Path) -> None:
    (memo,) = memo_files(cache)
    memo.write_bytes(memo.read_bytes()[:-10])


def _flip_the_code(root: Path, cache: Path) -> None:
    (memo,) = memo_files(cache)
    data = bytearray(memo.read_bytes())
    at = data.index(b'"mac": "') + len(b'"mac": "')
    data[at] = ord("0") if data[at] != ord("0") else ord("1")
    memo.write_bytes(bytes(data))


def _commit_the_ledger(root: Path, cache: Path) -> None:
    jobledger(root, "extract", cache=cache)


#: Each change after a run that recorded its memo, and whether the next run has work to do.
CHANGES: dict[str, tuple[Callable[[Path, Path], None], bool]] = {
    "overlay-one-byte": (_edit("overlays/job_policy.yaml", "# Job", "#Job"), False),
    "overlay-cell-value": (_edit("overlays/job_policy.yaml", '"no"', '"ye"'), False),
    "new-job-in-source": (
        _edit("src/shop/tasks.py", "@shared_task\ndef refund", "@shared_task\ndef void"),
        True,
    ),
    "required-cells-grew": (_edit("pyproject.toml", '["idempotent"]', '["idempotent", "x"]'), True),
    "committed-ledger-appears": (_commit_the_ledger, False),
    "memo-truncated": (_corrupt, False),
    "memo-code-flipped": (_flip_the_code, False),
}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_every_changed_input_or_broken_memo_takes_the_full_path(
    project: Path, cache: Path, name: str
) -> None:
    change, work = CHANGES[name]
    assert jobledger(project, "stub", cache=cache).code == 0
    assert not parsed_yaml(jobledger(project, "stub", "--check", cache=cache))
    change(project, cache)
    after = jobledger(project, "stub", "--check", cache=cache)
    assert parsed_yaml(after), name
    assert after.code == (1 if work else 0), after.stdout + after.stderr
    assert ("up to date, nothing to add" in after.stdout) is not work


def test_no_cache_takes_the_full_path_and_leaves_the_memo_alone(project: Path, cache: Path) -> None:
    first = jobledger(project, "stub", cache=cache)
    (memo,) = memo_files(cache)
    before = memo.read_bytes()
    memo.unlink()
    again = jobledger(project, "stub", "--no-cache", cache=cache)
    assert parsed_yaml(again)
    assert (again.code, again.stdout) == (first.code, first.stdout)
    assert memo_files(cache) == []  # neither written
    memo.write_bytes(before)
    assert parsed_yaml(jobledger(project, "stub", "--no-cache", cache=cache))  # nor read


def test_a_run_that_refused_something_records_no_memo(project: Path, cache: Path) -> None:
    """A cell the stub cannot add is a line of output, not "nothing to do": no memo, so every
    run says it again."""
    (project / "pyproject.toml").write_text(
        PYPROJECT.replace('["idempotent"]', '["idempotent", "paging_owner"]')
    )
    (project / "overlays" / "job_policy.yaml").write_text(
        'jobs:\n  shop.tasks.capture:\n    idempotent: "yes"\n    paging_owner: billing\n'
        '  shop.tasks.refund: {idempotent: "no"}\n'
    )
    first = jobledger(project, "stub", cache=cache)
    assert "cannot add paging_owner to shop.tasks.refund" in first.stdout
    assert first.stdout.endswith("up to date, nothing to add\n")
    assert memo_files(cache) == []
    again = jobledger(project, "stub", cache=cache)
    assert parsed_yaml(again)
    assert again.stdout == first.stdout


def test_a_run_that_warned_about_the_committed_ledger_records_no_memo(
    project: Path, cache: Path
) -> None:
    ledger = project / "generated" / "job_ledger.json"
    ledger.parent.mkdir()
    ledger.write_text("{not json")
    first = jobledger(project, "stub", cache=cache)
    assert "renames cannot be detected" in first.stderr
    assert memo_files(cache) == []
    again = jobledger(project, "stub", cache=cache)
    assert (again.stdout, again.stderr) == (first.stdout, first.stderr)


def forge(project: Path, key_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a pull request can commit: the memo for the checkout's exact inputs (every digest
    can be computed), signed with a key of its author's, not this machine's."""
    monkeypatch.setenv("JOBLEDGER_KEY_DIR", str(key_folder))
    config = load_config(root=project)
    committed = read_file("ledger", config).raw
    memo = open_memo(
        config,
        overlay=config.overlay_path.read_bytes(),
        ledger=extract_ledger(config),
        committed=committed,
        options=OPTIONS,
    )
    assert memo is not None
    memo.record()


def test_the_forger_computes_the_memo_a_real_run_writes(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The forged memos below are exact: with this machine's key, the forger's recipe writes
    the very bytes a real run writes, so only the key keeps them out."""
    monkeypatch.delenv("JOBLEDGER_CACHE_DIR", raising=False)  # the project's .jobledger_cache/
    assert jobledger(project, "stub", cache=None).code == 0
    (real,) = sorted((project / ".jobledger_cache").glob("stub-*.json"))
    written = real.read_bytes()
    real.unlink()
    forge(project, Path(os.environ["JOBLEDGER_KEY_DIR"]), monkeypatch)
    assert real.read_bytes() == written


@pytest.mark.parametrize("check", [False, True], ids=["stub", "check"])
def test_a_forged_memo_in_a_committed_cache_folder_never_hides_work(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, check: bool
) -> None:
    monkeypatch.delenv("JOBLEDGER_CACHE_DIR", raising=False)
    ours = os.environ["JOBLEDGER_KEY_DIR"]
    assert jobledger(project, "stub", cache=None).code == 0  # the folder holds a real memo
    # The pull request: a new job, no overlay entry, and a memo of its author's for that state.
    tasks = project / "src" / "shop" / "tasks.py"
    tasks.write_text(
        tasks.read_text() + "\n\n@shared_task\ndef void(order_id: str) -> None:\n    pass\n"
    )
    forge(project, tmp_path / "their-key", monkeypatch)
    monkeypatch.setenv("JOBLEDGER_KEY_DIR", ours)
    run = jobledger(project, "stub", *(["--check"] if check else []), cache=None)
    assert parsed_yaml(run)
    assert "shop.tasks.void" in run.stdout
    assert run.code == (1 if check else 0)
    if not check:
        assert "shop.tasks.void:" in (project / "overlays" / "job_policy.yaml").read_text()
