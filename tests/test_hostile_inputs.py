"""Issue 27: no command prints a traceback for any input a repository can hold.

ONE table drives the suite: each row is a file a reader reads (the overlay, the committed ledger,
the baseline, the owners roster, the drafts file, ``pyproject.toml``) holding one hostile input,
and every command that reads that file is run on it as a real ``jobledger`` (or ``pytest
--jobledger``) subprocess: each must end in its usual exit code with a located message naming
the file and line, never a traceback. The Hypothesis part below feeds generated inputs of the same
classes (long digit strings, NUL and lone surrogates, deep nesting, wrong types per key) to the
readers themselves; it is derandomized by the "ci" profile (tests/conftest.py).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from pytest_jobledger import cli
from pytest_jobledger.baseline.store import BaselineError, parse_baseline
from pytest_jobledger.core.errors import OverlayError
from pytest_jobledger.core.readers import Unreadable, parse_json, parse_toml, parse_yaml
from pytest_jobledger.ledger.model import LEDGER_KEYS, Ledger, NotALedger
from pytest_jobledger.ledger.store import parse_ledger
from pytest_jobledger.overlay.reader import parse_overlay
from pytest_jobledger.overlay.roster import parse_roster

JOB = "app.tasks.capture"
DIGITS = "9" * 4301  # one past CPython's int-string limit (4,300 digits)
OVERLAY = "overlays/job_policy.yaml"
LEDGER = "generated/job_ledger.json"
BASELINE = "overlays/jobledger-baseline.json"
ROSTER = "overlays/owners.yaml"
DRAFTS = "overlays/purpose_drafts.yaml"

SOURCE = '''from celery import shared_task


@shared_task(queue="billing", max_retries=3)
def capture(invoice_id):
    """Capture one invoice's payment."""
'''
CONFIG = (
    '[project]\nname = "tiny"\n\n[tool.jobledger]\npaths = ["src"]\n'
    'owners = "overlays/owners.yaml"\n'
)
SIGNED = f"""jobs:
  {JOB}:
    idempotent: "yes"
    poison_policy: retry-then-dead-letter
    paging_owner: billing-oncall
    runtime_class: synchronous-short
    purpose_accepted: Captures one invoice's payment.
"""

#: Every command, as it is run: ``jobledger ARGS`` (``pytest`` runs ``pytest --jobledger``).
COMMANDS: dict[str, list[str]] = {
    "check": ["check", "-v"],  # -v: each finding's whole message, where the line is named
    "list": ["list"],
    "show": ["show", JOB],
    "verdict": ["verdict", JOB, "--action", "retry"],
    "render": ["render", "-o", "-"],
    "stub": ["stub"],
    "render-preview": ["render", "--preview", "-o", "-"],
    "baseline": ["baseline"],
    "pytest": ["pytest"],
}
EVERY = tuple(command for command in COMMANDS if command != "render-preview")
#: What reads each file: the gate's commands read everything; list, show and verdict read the
#: committed ledger and the overlay; the drafts file is read by ``render --preview``.
READS: dict[str, tuple[str, ...]] = {
    OVERLAY: EVERY,
    LEDGER: EVERY,
    BASELINE: ("check", "render", "baseline", "pytest"),
    ROSTER: ("check", "render", "baseline", "pytest"),
    DRAFTS: ("render-preview",),
    # pytest itself reads pyproject.toml (its ini options) with tomllib before any plugin is
    # loaded, so a 4,301-digit number there ends pytest in its own traceback; not jobledger's.
    "pyproject.toml": tuple(command for command in EVERY if command != "pytest"),
}


#: Stands for the 4,301-digit number in a ledger row (json.dumps cannot write it).
SENTINEL = 1234567890


def _ledger_with(**fields: Any) -> str:
    """The tiny project's committed ledger with one row's fields replaced (as a hand edit)."""
    return "@ledger@" + json.dumps(fields)


@dataclass(frozen=True)
class Hostile:
    """One hostile file: where it goes, what it holds, the line a message must name, and each
    reading command's exit code (the gate's codes: 1 red, 2 a usage or file error, 3 a verdict
    that needs review)."""

    name: str
    path: str
    text: str
    line: int
    codes: dict[str, int]


def _codes(path: str, **codes: int) -> dict[str, int]:
    return {command: codes[command] for command in READS[path]}


#: THE table (each hostile state that once crashed a command has a row here).
TABLE: tuple[Hostile, ...] = (
    Hostile(
        "overlay-long-integer",  # item 2
        OVERLAY,
        SIGNED.replace('"yes"', DIGITS),
        3,
        _codes(OVERLAY, check=1, list=0, show=0, verdict=1, render=1, stub=2, baseline=1, pytest=1),
    ),
    Hostile(
        "overlay-impossible-date",  # item 4: the stub crashed where the gate reported it
        OVERLAY,
        SIGNED + "    reviewed_on: 2025-02-30\n",
        8,
        _codes(OVERLAY, check=1, list=0, show=0, verdict=1, render=1, stub=2, baseline=1, pytest=1),
    ),
    Hostile(
        "overlay-bom-repeated-key-reused-anchor",  # item 10: the explore profile's finding
        OVERLAY,
        f"\ufeffjobs:\n  {JOB}: &a {{}}\n  {JOB}: &a {{}}\n",
        3,
        _codes(OVERLAY, check=1, list=0, show=0, verdict=1, render=1, stub=2, baseline=1, pytest=1),
    ),
    Hostile(
        "ledger-long-integer",  # item 2
        LEDGER,
        _ledger_with(line=SENTINEL),
        0,
        _codes(LEDGER, check=1, list=0, show=0, verdict=3, render=1, stub=0, baseline=1, pytest=1),
    ),
    Hostile(
        "ledger-options-list",  # item 3
        LEDGER,
        _ledger_with(options=[1]),
        0,
        _codes(LEDGER, check=1, list=0, show=0, verdict=3, render=1, stub=0, baseline=1, pytest=1),
    ),
    Hostile(
        "ledger-unresolved-text",  # item 3
        LEDGER,
        _ledger_with(unresolved="x"),
        0,
        _codes(LEDGER, check=1, list=0, show=0, verdict=3, render=1, stub=0, baseline=1, pytest=1),
    ),
    Hostile(
        "ledger-defaults-text",  # item 3
        LEDGER,
        _ledger_with(defaults="x"),
        0,
        _codes(LEDGER, check=1, list=0, show=0, verdict=3, render=1, stub=0, baseline=1, pytest=1),
    ),
    Hostile(
        "baseline-long-integer",  # item 2
        BASELINE,
        '{\n  "entries": [],\n  "format": "jobledger-baseline",\n  "schema_version": '
        + DIGITS
        + "\n}\n",
        4,
        _codes(BASELINE, check=2, render=2, baseline=2, pytest=2),
    ),
    Hostile(
        "roster-long-integer",
        ROSTER,
        f"- billing-oncall\n- {DIGITS}\n",
        2,
        _codes(ROSTER, check=1, render=1, baseline=1, pytest=1),
    ),
    Hostile(
        "drafts-long-integer",
        DRAFTS,
        f"drafts:\n  {JOB}:\n    status: unverified-draft\n    program: {DIGITS}\n",
        4,
        _codes(DRAFTS, **{"render-preview": 0}),  # the preview says so and goes on
    ),
    Hostile(
        "pyproject-long-integer",
        "pyproject.toml",
        CONFIG + f"max_overlay_bytes = {DIGITS}\n",
        7,
        _codes("pyproject.toml", **dict.fromkeys(EVERY, 2)),
    ),
)

CASES = [
    pytest.param(hostile, command, id=f"{hostile.name}-{command}")
    for hostile in TABLE
    for command in hostile.codes
]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A one-job project with a signed overlay and its committed ledger (made once)."""
    root = tmp_path_factory.mktemp("tiny") / "project"
    (root / "src" / "app").mkdir(parents=True)
    (root / "src" / "app" / "tasks.py").write_text(SOURCE)
    (root / "overlays").mkdir()
    (root / "overlays" / "owners.yaml").write_text("- billing-oncall\n")
    (root / "overlays" / "job_policy.yaml").write_text(SIGNED)
    (root / "pyproject.toml").write_text(CONFIG)
    assert cli.main(["extract", "--root", str(root)]) == 0
    return root


def run(root: Path, args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """The command's exit code and everything it printed. ``pytest --jobledger`` runs as a real
    subprocess; ``jobledger`` commands run in this process through the real entry point (a
    traceback there is an exception that fails the test), which keeps ~70 runs affordable."""
    if args != ["pytest"]:
        capsys.readouterr()
        code = cli.main([*args, "--root", str(root)])
        out, err = capsys.readouterr()
        return code, out + err
    command = [sys.executable, "-m", "pytest", "--jobledger", "-p", "no:cacheprovider", "-v"]
    command += ["-p", "no:randomly", str(root)]
    env = {key: value for key, value in os.environ.items() if not key.startswith("GITHUB_")}
    done = subprocess.run(
        command, cwd=root, capture_output=True, text=True, timeout=300, env=env, check=False
    )
    return done.returncode, done.stdout + done.stderr


def plant(root: Path, hostile: Hostile) -> str:
    """Write the hostile file into the project; returns its exact text."""
    text = hostile.text
    if text.startswith("@ledger@"):
        ledger = json.loads((root / LEDGER).read_text("utf-8"))
        ledger["jobs"][0].update(json.loads(text.removeprefix("@ledger@")))
        text = json.dumps(ledger, indent=2, sort_keys=True) + "\n"
        text = text.replace(str(SENTINEL), DIGITS)
    (root / hostile.path).write_bytes(text.encode("utf-8"))
    return text


def expected_line(hostile: Hostile, text: str) -> int:
    """The line a message must name (for a ledger row: the row's ``"id"`` line, or the long
    number's)."""
    if hostile.line:
        return hostile.line
    marker = DIGITS if DIGITS in text else f'"id": "{JOB}"'
    return text[: text.index(marker)].count("\n") + 1


@pytest.mark.parametrize(("hostile", "command"), CASES)
def test_every_reader_of_a_hostile_file_gives_a_located_error_and_its_exit_code(
    template: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    hostile: Hostile,
    command: str,
) -> None:
    root = tmp_path / "project"
    shutil.copytree(template, root)
    text = plant(root, hostile)
    code, output = run(root, COMMANDS[command], capsys)
    assert "Traceback" not in output, output[-3000:]
    assert "internal error" not in output, output[-3000:]
    line = expected_line(hostile, text)
    located = f"{hostile.path}:{line}" in output or f"line {line}" in output
    assert located, f"{hostile.path}:{line} not named:\n{output[-3000:]}"
    assert code == hostile.codes[command], output[-3000:]
    if command == "stub" and hostile.path == OVERLAY:
        assert (root / OVERLAY).read_bytes() == text.encode("utf-8")  # left untouched


# -- generated inputs, straight to the readers ------------------------------------------------

long_digits = st.integers(min_value=4301, max_value=6000).map(lambda n: "7" * n)
odd_text = st.text(
    alphabet=st.sampled_from(["\x00", "\udfff", "\ud800", "a", "\ufeff", "\u2028", '"', "\\"]),
    max_size=8,
)
depth = st.integers(min_value=65, max_value=1500)


@given(long_digits, st.sampled_from(["json", "toml", "yaml"]))
def test_a_number_too_long_for_python_is_a_located_problem(digits: str, fmt: str) -> None:
    text = {
        "json": f'{{\n  "n": {digits}\n}}\n',
        "toml": f"[t]\nn = {digits}\n",
        "yaml": f"t:\n  n: {digits}\n",
    }[fmt]
    reader = {"json": parse_json, "toml": parse_toml, "yaml": parse_yaml}[fmt]
    with pytest.raises(Unreadable) as caught:
        reader(text)
    assert caught.value.problem.reason == "number"
    assert caught.value.problem.line == 2
    assert f"{len(digits):,} digits" in caught.value.problem.detail


@given(depth, st.sampled_from(["json", "toml", "yaml-flow", "yaml-block"]))
@example(100_000, "json")
def test_deep_nesting_is_a_located_problem(levels: int, fmt: str) -> None:
    text = {
        "json": "[" * levels + "]" * levels,
        "toml": "a = " + "[" * levels + "]" * levels,
        "yaml-flow": "a: " + "[" * levels + "]" * levels,
        "yaml-block": "".join(" " * i + f"k{i}:\n" for i in range(min(levels, 400))),
    }[fmt]
    reader = {"json": parse_json, "toml": parse_toml}.get(fmt, parse_yaml)
    # Reading it may succeed (a nesting Python can follow) or be refused, located: never crash.
    assert _outcome(lambda: reader(text), Unreadable) != "crash"


@given(odd_text)
def test_nul_and_lone_surrogates_in_every_reader_are_values_or_located_errors(
    odd: str,
) -> None:
    escaped = json.dumps(odd, ensure_ascii=True)  # \u0000 and \udfff as JSON escapes
    yaml_text = f"jobs:\n  {JOB}:\n    purpose_accepted: {escaped}\n"
    assert _outcome(lambda: parse_overlay(yaml_text, OVERLAY), OverlayError) != "crash"
    assert _outcome(lambda: parse_roster(f"- {escaped}\n", ROSTER), OverlayError) != "crash"
    ledger, problem = parse_ledger(json.dumps({"jobs": [{"id": odd}], "schema_version": 1}))
    assert ledger is None
    assert problem
    baseline = {"format": "jobledger-baseline", "schema_version": 1, "entries": [odd]}
    assert _outcome(lambda: parse_baseline(json.dumps(baseline), BASELINE), BaselineError) == (
        "located"
    )


def _outcome(read: Any, refusal: type[Exception]) -> str:
    """``"read"``, ``"located"`` (the reader's own refusal, with a line) or ``"crash"``."""
    try:
        read()
    except refusal as error:
        problem = getattr(error, "problem", None)
        line = problem.line if problem is not None else getattr(error, "line", None)
        return "located" if isinstance(line, int) and line >= 1 else "crash"
    except Exception:  # anything else is a crash: what this table exists to catch
        return "crash"
    return "read"


WRONG_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=3),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)


def _row() -> dict[str, Any]:
    return {
        "id": JOB,
        "function": "capture",
        "module": "app.tasks",
        "path": "src/app/tasks.py",
        "line": 4,
        "framework": "celery",
        "decorator": "celery.shared_task",
        "name": None,
        "queue": "billing",
        "max_retries": 3,
        "retry_delay_s": None,
        "soft_time_limit_s": None,
        "time_limit_s": None,
        "docstring": "Capture one invoice's payment.",
        "options": {},
        "unresolved": {},
        "defaults": {},
    }


@given(st.sampled_from(LEDGER_KEYS), WRONG_VALUES)
@example("options", [1])
@example("unresolved", "x")
@example("defaults", "x")
def test_a_wrong_type_under_any_ledger_key_is_refused_by_name_or_read(key: str, value: Any) -> None:
    row = _row()
    row[key] = value
    text = json.dumps({"schema_version": 1, "jobs": [row], "unsupported": []}, indent=2)
    ledger, problem = parse_ledger(text)
    if ledger is None:
        assert problem is not None
        assert f'"{key}"' in problem
        if key != "id":
            assert "line 5" in problem  # where the job's "id" is written
        return
    # What was accepted is what the rest of the tool can use without crashing.
    job = ledger.jobs[0]
    assert isinstance(job.options, dict)
    assert all(isinstance(v, str) for v in (*job.unresolved.values(), *job.defaults.values()))
    assert Ledger.from_json(json.loads(ledger.dumps())) == ledger


def test_from_json_names_the_job_and_the_key() -> None:
    row = _row()
    row["options"] = [1]
    with pytest.raises(NotALedger, match=r'job 1 \(app.tasks.capture\): "options" is a list'):
        Ledger.from_json({"jobs": [row]})
