"""``pytest --jobledger`` end to end through pytester: node ids, outcomes, exit codes, xdist."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from repo_files import copy_tracked

from pytest_jobledger.cli import main
from pytest_jobledger.findings import Finding, Kind

REPO = Path(__file__).resolve().parents[1]
HOMEGROWN = REPO / "examples" / "homegrown"
CASES = REPO / "tests" / "cases" / "gate"

OVERLAY = "overlays/job_policy.yaml"
CAPTURE = "acme.billing.tasks.capture_invoice"
RECEIPT = "acme.billing.tasks.send_receipt"
CELLS = ("idempotent", "poison_policy", "paging_owner", "runtime_class", "purpose_accepted")
STATUS = (
    f"{OVERLAY}::jobledger-status::overlay-valid",
    f"{OVERLAY}::jobledger-status::ledger-fresh",
    f"{OVERLAY}::jobledger-status::jobs-found",
)
CELL_IDS = tuple(f"{OVERLAY}::{job}::{cell}" for job in (CAPTURE, RECEIPT) for cell in CELLS)

#: xdist active (two workers) and absent: the outcomes must be the same.
MODES = [pytest.param(("-n", "2"), id="xdist"), pytest.param(("-p", "no:xdist"), id="no-xdist")]


@pytest.fixture
def project(pytester: pytest.Pytester) -> Path:
    """The seed article's example project (two jobs, five cells each), plus one ordinary test."""
    copy_tracked(HOMEGROWN, pytester.path, dirs_exist_ok=True)
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    return pytester.path


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """In process where it can be (fast); in a subprocess when xdist starts workers."""
    run = pytester.runpytest_subprocess if "-n" in args else pytester.runpytest_inprocess
    return run("-p", "no:cacheprovider", "-p", "no:randomly", *args)


def _collected(pytester: pytest.Pytester, *args: str) -> list[str]:
    result = _run(pytester, "--collect-only", "-q", *args)
    return [line for line in result.outlines if "::" in line]


def test_collects_status_then_every_cell_in_order(pytester: pytest.Pytester, project: Path) -> None:
    # The walk from the rootdir reaches the overlay before test_plain.py.
    assert _collected(pytester, "--jobledger") == [*STATUS, *CELL_IDS, "test_plain.py::test_plain"]


def test_no_items_without_the_option(pytester: pytest.Pytester, project: Path) -> None:
    assert _collected(pytester) == ["test_plain.py::test_plain"]


def test_ini_option_turns_the_gate_on(pytester: pytest.Pytester, project: Path) -> None:
    # pytest.ini comes before the example's own [tool.pytest.ini_options] table.
    pytester.makefile(".ini", pytest="[pytest]\njobledger = true\n")
    assert len(_collected(pytester)) == 1 + len(STATUS) + 10


def test_items_come_once_whatever_paths_are_given(pytester: pytest.Pytester, project: Path) -> None:
    assert _collected(pytester, "--jobledger", "test_plain.py") == [
        "test_plain.py::test_plain",
        *STATUS,
        *CELL_IDS,
    ]
    walked = _collected(pytester, "--jobledger", ".")
    assert sorted(walked) == sorted(["test_plain.py::test_plain", *STATUS, *CELL_IDS])
    assert _collected(pytester, "--jobledger", f"{OVERLAY}::{CAPTURE}::idempotent") == [
        f"{OVERLAY}::{CAPTURE}::idempotent"
    ]


@pytest.mark.parametrize("mode", MODES)
def test_seed_example_passes(
    pytester: pytest.Pytester, project: Path, mode: tuple[str, str]
) -> None:
    result = _run(pytester, "--jobledger", *mode)
    result.assert_outcomes(passed=14)
    assert result.ret == 0


def test_marker_keyword_and_deselect_select_items(pytester: pytest.Pytester, project: Path) -> None:
    only = _run(pytester, "--jobledger", "-m", "jobledger")
    only.assert_outcomes(passed=13, deselected=1)
    keyword = _run(pytester, "--jobledger", "-k", "capture_invoice and idempotent")
    keyword.assert_outcomes(passed=1, deselected=13)
    deselect = _run(pytester, "--jobledger", "--deselect", f"{OVERLAY}::{RECEIPT}")
    deselect.assert_outcomes(passed=9, deselected=5)


def _break_overlay(project: Path) -> None:
    path = project / OVERLAY
    text = path.read_text()
    text = text.replace('idempotent: "no"', "idempotent: no")
    text = text.replace("paging_owner: messaging-oncall", "paging_onwer: messaging-oncall")
    text += '  acme.billing.tasks.refund_invoice:\n    idempotent: "yes"\n'
    path.write_text(text)


@pytest.mark.parametrize("mode", MODES)
def test_failures_are_located_plain_text(
    pytester: pytest.Pytester, project: Path, mode: tuple[str, str]
) -> None:
    _break_overlay(project)
    # -v: the whole message (the default is its short first line, checked in
    # tests/reporters/test_quiet_check.py).
    result = _run(pytester, "--jobledger", "-rf", "-v", *mode)
    result.assert_outcomes(passed=12, failed=4)
    assert result.ret == 1
    failed = sorted(
        line.split(" ", 1)[1].split(" - ")[0]
        for line in result.outlines
        if line.startswith("FAILED ")
    )
    assert failed == [
        f"{OVERLAY}::{CAPTURE}::idempotent",
        f"{OVERLAY}::acme.billing.tasks.refund_invoice::orphan",
        f"{OVERLAY}::{RECEIPT}::paging_onwer",
        f"{OVERLAY}::{RECEIPT}::paging_owner",
    ]
    result.stdout.fnmatch_lines(
        ['*[[]not-yes-no[]] Job acme.billing.tasks.capture_invoice*idempotent: "no"*']
    )
    assert "Traceback" not in result.stdout.str()
    assert "pytest_jobledger" not in result.stdout.str()


def test_failing_items_carry_the_finding_to_the_controller(
    pytester: pytest.Pytester, project: Path
) -> None:
    _break_overlay(project)
    pytester.makeconftest(
        """
        import json

        SEEN = {}

        def pytest_configure(config):
            SEEN["worker"] = hasattr(config, "workerinput")

        def pytest_runtest_logreport(report):
            if SEEN["worker"] or report.when != "call":
                return
            for name, value in report.user_properties:
                if name == "jobledger_finding":
                    with open("findings.jsonl", "a") as handle:
                        handle.write(json.dumps(value) + "\\n")
        """
    )
    _run(pytester, "--jobledger", "-n", "2").assert_outcomes(passed=12, failed=4)
    rows = [json.loads(line) for line in (project / "findings.jsonl").read_text().splitlines()]
    findings = sorted((Finding.from_json(row) for row in rows), key=lambda f: (f.job, f.cell))
    assert [(f.kind, f.path, f.line) for f in findings] == [
        (Kind.NOT_YES_NO, OVERLAY, 4),
        (Kind.ORPHAN, OVERLAY, 18),
        (Kind.UNKNOWN_KEY, OVERLAY, 14),
        (Kind.UNSIGNED, OVERLAY, 11),
    ]


def test_bad_overlay_fails_one_status_item_and_skips_cells(
    pytester: pytest.Pytester, project: Path
) -> None:
    (project / OVERLAY).write_text("jobs:\n  acme.billing.tasks.capture_invoice: {\n")
    result = _run(pytester, "--jobledger", "-rfs")
    result.assert_outcomes(passed=3, failed=1, skipped=10)
    result.stdout.fnmatch_lines(
        ["*[[]overlay-invalid[]] The overlay*(line 2)*not valid YAML*", f"FAILED {STATUS[0]}*"]
    )
    assert "Traceback" not in result.stdout.str()
    # Skipped where the overlay's error is, as pytest's own skip markers report (not plugin.py).
    result.stdout.fnmatch_lines([f"SKIPPED [[]10[]] {OVERLAY}*: the overlay could not be read*"])
    assert "plugin.py" not in result.stdout.str()


def test_stale_ledger_fails_the_freshness_item(pytester: pytest.Pytester, project: Path) -> None:
    assert main(["extract", "--root", str(project)]) == 0
    ledger = project / "generated" / "job_ledger.json"
    ledger.write_text(ledger.read_text().replace('"queue": "billing"', '"queue": "payments"'))
    result = _run(pytester, "--jobledger", "-m", "jobledger", "-k", "ledger-fresh", "-v")
    result.assert_outcomes(failed=1, deselected=13)
    result.stdout.fnmatch_lines(
        [
            "*[[]ledger-stale[]]*acme.billing.tasks.capture_invoice: queue payments -> billing*"
            "run `jobledger extract`*"
        ]
    )


def test_bad_configuration_is_a_usage_error(pytester: pytest.Pytester, project: Path) -> None:
    pyproject = project / "pyproject.toml"
    table = "[tool.jobledger]\n"
    pyproject.write_text(pyproject.read_text().replace(table, table + 'paths_ = ["src"]\n'))
    result = _run(pytester, "--jobledger")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*jobledger:*paths_*unknown key*"])


# -- bad input: located errors, never a traceback ---------------------------------------


def test_a_missing_root_names_the_pytest_option(pytester: pytest.Pytester, project: Path) -> None:
    result = _run(pytester, "--jobledger", "--jobledger-root", "nope")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*jobledger:*nope: --jobledger-root is not a folder*"])
    assert "--root " not in result.stderr.str()


def test_an_empty_scan_fails_the_jobs_found_item(pytester: pytest.Pytester, project: Path) -> None:
    pyproject = project / "pyproject.toml"
    text = pyproject.read_text().replace('paths = ["src"]\n', 'paths = ["src"]\nexclude = ["**"]\n')
    pyproject.write_text(text)
    result = _run(pytester, "--jobledger", "-m", "jobledger", "-k", "jobs-found")
    # Deselected: the two other status items, the two entries (now orphans) and test_plain.
    result.assert_outcomes(failed=1, deselected=5)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "*[[]no-jobs[]] No job registration found under paths*(exclude: *",
            f"FAILED {STATUS[2]}*",
        ]
    )


PASSED = re.compile(r"PASSED (\S+)")

#: Loaded by every process of the session (controller and workers) before the gate extracts:
#: each extraction appends the process's role to a log.
COUNTING_CONFTEST = """
import os
from pathlib import Path

from pytest_jobledger.extract import engine

_run = engine.Extractor.run


def run(self):
    role = os.environ.get("PYTEST_XDIST_WORKER", "controller")
    with open(Path(__file__).parent / "extractions.log", "a") as log:
        log.write(role + "\\n")
    return _run(self)


engine.Extractor.run = run


def pytest_unconfigure(config):
    engine.Extractor.run = _run  # an in-process run must not leave the test process patched
"""


@pytest.mark.parametrize("cache", [(), ("--jobledger-no-cache",)], ids=["cache", "no-cache"])
@pytest.mark.parametrize("mode", MODES)
def test_one_extraction_per_session_and_the_same_items_on_every_worker(
    pytester: pytest.Pytester,
    project: Path,
    mode: tuple[str, str],
    cache: tuple[str, ...],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under xdist the controller extracts once and hands the ledger to the workers: no worker
    parses the tree, and every worker collects what a run without xdist collects."""
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)  # this suite's own worker
    (project / "conftest.py").write_text(COUNTING_CONFTEST)
    log = project / "extractions.log"
    result = _run(pytester, "--jobledger", "-m", "jobledger", *mode, *cache)
    assert result.parseoutcomes()["passed"] == 13  # xdist does not count the deselected
    assert log.read_text().splitlines() == ["controller"]
    if mode[0] == "-n" and not cache:
        serial = _collected(pytester, "--jobledger", "-p", "no:xdist")
        log.unlink()
        result = _run(pytester, "--jobledger", "-v", *mode, *cache)
        ran = sorted({m.group(1) for m in map(PASSED.search, result.outlines) if m})
        assert ran == sorted(serial)
        assert log.read_text().splitlines() == ["controller"]


def test_the_cache_flag_leaves_no_cache_behind(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("JOBLEDGER_CACHE_DIR", raising=False)
    _run(pytester, "--jobledger", "--jobledger-no-cache").assert_outcomes(passed=14)
    assert not (project / ".jobledger_cache").exists()
    _run(pytester, "--jobledger").assert_outcomes(passed=14)
    assert (project / ".jobledger_cache" / "CACHEDIR.TAG").is_file()


# -- a session without --jobledger pays nothing for the gate ------------------------------------

HEAVY = ("libcst", "ruamel", "jsonschema", "pathspec")

SESSION_CONFTEST = """
import sys
from pathlib import Path


def pytest_unconfigure(config):
    loaded = sorted({name.split(".")[0] for name in sys.modules} & set(%r))
    Path(__file__).with_name("loaded.txt").write_text(" ".join(loaded))
"""


def test_a_session_without_the_gate_imports_no_parser(pytester: pytest.Pytester) -> None:
    """pytest loads the plugins in every session of every project that has the package
    installed: without --jobledger the parsers and validators (libcst, ruamel.yaml,
    jsonschema, ...) stay unimported, so a plain test run costs what it did without the gate."""
    pytester.makeconftest(SESSION_CONFTEST % (HEAVY,))
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    # a module to parse: a gate run with nothing to parse needs no parser either
    pytester.makepyfile(
        jobs="from celery import shared_task\n\n\n@shared_task\ndef work():\n    pass\n"
    )
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
    assert (pytester.path / "loaded.txt").read_text() == ""
    pytester.runpytest_subprocess("-p", "no:cacheprovider", "--jobledger")
    assert "libcst" in (pytester.path / "loaded.txt").read_text().split()
