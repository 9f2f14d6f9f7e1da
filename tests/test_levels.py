"""A finding's level, honoured by every presenter: only an error fails anything."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_jobledger.core.errors import ConfigError
from pytest_jobledger.findings import Finding, Level
from pytest_jobledger.gate.today import resolve_today
from pytest_jobledger.github.commands import annotation_lines
from pytest_jobledger.github.sarif import sarif_log
from pytest_jobledger.github.summary import counts, render_summary
from pytest_jobledger.project import Config, config_from_table
from pytest_jobledger.reporters import get, text
from pytest_jobledger.reporters.text import VERBOSE, render

MakeFinding = Callable[..., Finding]


def leveled(make: MakeFinding, level: Level, job: str = "a.b.c") -> Finding:
    finding = make(job=job)
    return Finding(**{**finding.__dict__, "level": level})


def test_text_marks_what_does_not_fail(make_finding: MakeFinding, tmp_path: Path) -> None:
    findings = [
        make_finding(),
        leveled(make_finding, Level.WARNING),
        leveled(make_finding, Level.NOTICE),
    ]
    # By default the known notices are counted, not listed (-v lists them).
    default = get("text")(findings, Config(root=tmp_path)).splitlines()
    assert not any(line.startswith("known (") for line in default)
    assert default[-2] == (
        "jobledger: 1 failing finding (1 unsigned); 1 warning, 1 known (not failing; -v lists them)"
    )
    text = render(findings, Config(root=tmp_path), verbosity=VERBOSE).splitlines()
    assert text[0].startswith("overlays/job_policy.yaml:3: acme.billing.tasks.capture_invoice::")
    # Warnings, then the known notices (a baseline's), each apart and never counted as failing.
    assert text[1] == "warnings (they do not fail):"
    assert text[2].startswith("overlays/job_policy.yaml:3: warning: a.b.c::idempotent [unsigned]")
    assert text[3] == "known (notices, not counted as failures):"
    assert text[4].startswith("overlays/job_policy.yaml:3: notice: a.b.c::idempotent")
    assert text[5] == "jobledger: 1 failing finding (1 unsigned); 1 warning, 1 known (not failing)"
    assert text[6].startswith("next: answer the 1 unsigned cell")


def test_known_cells_of_a_job_with_no_entry_are_one_line_and_no_failure(
    make_finding: MakeFinding, tmp_path: Path
) -> None:
    cells = ("idempotent", "poison_policy", "paging_owner", "runtime_class", "purpose_accepted")
    known = [
        Finding(**{**make_finding(cell=cell).__dict__, "level": Level.NOTICE, "path": "t.py"})
        for cell in cells
    ]
    tally = text.Tally(jobs=3, cells=15, signed=10, skipped=0, no_entry=frozenset({known[0].job}))
    assert text.render(known, Config(root=tmp_path), tally).splitlines() == [
        "jobledger: 3 jobs, 10 of 15 cells signed; 5 known (not failing; -v lists them)"
    ]
    lines = text.render(known, Config(root=tmp_path), tally, verbosity=text.VERBOSE).splitlines()
    # -v lists the known items: the job's one line, each of its cells under it.
    assert lines[:2] == [
        "known (notices, not counted as failures):",
        "t.py:3: notice: acme.billing.tasks.capture_invoice: no entry: 5 cells unsigned",
    ]
    assert len(lines) == 2 + len(cells) + 1
    assert lines[-1] == "jobledger: 3 jobs, 10 of 15 cells signed; 5 known (not failing)"


def test_json_round_trips_the_level(make_finding: MakeFinding) -> None:
    finding = leveled(make_finding, Level.WARNING)
    assert finding.to_json()["level"] == "warning"
    assert Finding.from_json(json.loads(json.dumps(finding.to_json()))) == finding


def test_github_commands_sarif_and_summary_follow_the_level(
    make_finding: MakeFinding, tmp_path: Path
) -> None:
    warnings = [leveled(make_finding, Level.WARNING, job=f"a.b.j{i}") for i in range(12)]
    notice = leveled(make_finding, Level.NOTICE, job="a.b.known")
    error = make_finding()
    lines = annotation_lines([*warnings, notice, error], root=tmp_path)
    names = [line.split(" ", 1)[0] for line in lines]
    assert names == ["::error", *["::warning"] * 10, "::notice", "::notice"]
    assert "2 more jobledger findings" in lines[-1]
    log: dict[str, list[dict[str, list[dict[str, str]]]]] = sarif_log(  # type: ignore[assignment]
        [error, notice, warnings[0]], root=tmp_path
    )
    levels = [result["level"] for result in log["runs"][0]["results"]]
    assert sorted(levels) == ["error", "note", "warning"]
    assert counts([error, notice, *warnings])["failing-cells"] == 1
    summary = render_summary([error, notice, *warnings])
    assert "**1 failing** · 1 unsigned job · 0 orphans · 12 warnings · 1 notice" in summary
    # Each level in its own table: what blocks first, warnings, then the known notice collapsed.
    assert "| Unsigned cells | 1 | 13 |" in summary
    blocking = summary.index("### Blocking the merge: 1")
    warned = summary.index("### Warnings (not blocking): 12")
    assert blocking < warned < summary.index("<details><summary>Known, not blocking")


def test_today_is_pinned_by_option_then_environment() -> None:
    assert resolve_today("2025-03-01", {}) == datetime.date(2025, 3, 1)
    assert resolve_today(None, {"JOBLEDGER_TODAY": "2024-02-29"}) == datetime.date(2024, 2, 29)
    assert resolve_today(None, {}) == datetime.date.today()
    with pytest.raises(ConfigError, match="--today must be a day written YYYY-MM-DD"):
        resolve_today("03/01/2025", {})
    with pytest.raises(ConfigError, match="JOBLEDGER_TODAY"):
        resolve_today(None, {"JOBLEDGER_TODAY": "tomorrow"})


@pytest.mark.parametrize(
    ("table", "says"),
    [
        ({"review_on_change": "warning"}, "must be one of 'warn', 'fail', 'off'"),
        ({"max_review_age_days": 0}, "positive integer"),
        ({"max_review_age_days": True}, "positive integer"),
        ({"owners": "../owners.yaml"}, "must be relative to the root"),
    ],
)
def test_new_keys_are_validated(tmp_path: Path, table: dict[str, object], says: str) -> None:
    with pytest.raises(ConfigError, match=says):
        config_from_table(table, root=tmp_path)


def test_a_maximum_review_age_makes_reviewed_on_required(tmp_path: Path) -> None:
    config = config_from_table({"max_review_age_days": 90}, root=tmp_path)
    assert config.cells.required[-1] == "reviewed_on"
    assert config.cells.vocabulary.required == config.cells.required
