"""The join on hand-made ledgers and overlays: pure, ordered, and each rule on its own."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_jobledger.findings import Check, Finding, Kind
from pytest_jobledger.gate.join import findings as failing
from pytest_jobledger.gate.join import join
from pytest_jobledger.gate.status import ledger_status
from pytest_jobledger.ledger.diff import ledger_diff
from pytest_jobledger.ledger.model import Job, Ledger, Pattern, Unsupported
from pytest_jobledger.overlay.model import Overlay
from pytest_jobledger.overlay.reader import parse_overlay
from pytest_jobledger.project import Cells, Config

CONFIG = Config(root=Path("/project"))


def checks(ledger: Ledger, overlay: Overlay | None, config: Config) -> list[Check]:
    return list(join(ledger, overlay, config).checks)


def job(job_id: str, line: int = 3, path: str = "src/acme/tasks.py", **fields: object) -> Job:
    module, _, function = job_id.rpartition(".")
    return Job(
        id=job_id,
        function=function,
        module=module,
        path=path,
        line=line,
        framework="celery",
        decorator="celery.shared_task",
        **fields,  # type: ignore[arg-type]
    )


SIGNED = """\
    idempotent: "yes"
    poison_policy: drop it
    paging_owner: ops
    runtime_class: short
    purpose_accepted: Does the thing.
"""


def overlay(*ids: str) -> str:
    return "jobs:\n" + "".join(f"  {job_id}:\n{SIGNED}" for job_id in ids)


def test_signed_jobs_pass_every_cell() -> None:
    ledger = Ledger.build([job("acme.tasks.b"), job("acme.tasks.a")])
    result = checks(
        ledger, parse_overlay(overlay("acme.tasks.a", "acme.tasks.b"), "o.yaml"), CONFIG
    )
    assert [check.name for check in result] == [
        f"acme.tasks.{name}::{cell}" for name in "ab" for cell in CONFIG.cells.required
    ]
    assert all(check.finding is None for check in result)
    assert result[0].path == "o.yaml"
    assert result[0].line == 3


def test_order_is_stable_whatever_the_input_order() -> None:
    jobs = [job("acme.tasks.c"), job("acme.tasks.a"), job("acme.tasks.b", line=9)]
    text = "jobs:\n  acme.zzz: {}\n  acme.tasks.b:\n    queue: x\n"
    unsupported = [Unsupported("src/z.py", 4, Pattern.FACTORY_REGISTRATION, "inside a factory")]
    one = failing(Ledger.build(jobs, unsupported), parse_overlay(text, "o.yaml"), CONFIG)
    two = failing(Ledger.build(jobs[::-1], unsupported), parse_overlay(text, "o.yaml"), CONFIG)
    assert one == two
    assert [(f.job, f.cell) for f in one][-3:] == [
        ("acme.tasks.c", "purpose_accepted"),
        ("acme.zzz", "orphan"),
        ("src/z.py:4", "unsupported"),
    ]


def test_blocked_values_ignore_case_and_spacing() -> None:
    config = Config(root=Path("/p"), cells=Cells(blocked=("unknown", "TBD")))
    text = overlay("acme.tasks.a").replace("drop it", '"  Unknown\\t"').replace("ops", " tbd ")
    findings = failing(Ledger.build([job("acme.tasks.a")]), parse_overlay(text, "o.yaml"), config)
    assert [(f.cell, f.kind) for f in findings] == [
        ("poison_policy", Kind.UNSIGNED),
        ("paging_owner", Kind.UNSIGNED),
    ]


def test_empty_and_null_are_unsigned_even_when_not_configured() -> None:
    config = Config(root=Path("/p"), cells=Cells(blocked=("tbd",)))
    text = (
        overlay("acme.tasks.a")
        .replace("drop it", '"   "')
        .replace("paging_owner: ops", "paging_owner: ~")
    )
    findings = failing(Ledger.build([job("acme.tasks.a")]), parse_overlay(text, "o.yaml"), config)
    assert [f.cell for f in findings] == ["poison_policy", "paging_owner"]


def test_unreadable_overlay_skips_cells_but_not_ledger_problems() -> None:
    ledger = Ledger.build(
        [job("acme.tasks.a"), job("acme.tasks.a", line=9)],
        [Unsupported("src/f.py", 2, Pattern.LOOP_REGISTRATION, "in a loop")],
    )
    result = checks(ledger, None, CONFIG)
    assert [check.skipped is not None for check in result].count(True) == 5
    assert [f.kind for f in (c.finding for c in result) if f] == [
        Kind.DUPLICATE_ID,
        Kind.UNSUPPORTED,
    ]


def test_unsupported_at_the_same_place_get_distinct_names() -> None:
    ledger = Ledger.build(
        [],
        [
            Unsupported("src/f.py", 2, Pattern.LOOP_REGISTRATION, "one"),
            Unsupported("src/f.py", 2, Pattern.TOO_COMPLEX, "two"),
        ],
    )
    names = [check.name for check in checks(ledger, parse_overlay("", "o.yaml"), CONFIG)]
    assert names == ["src/f.py:2::unsupported", "src/f.py:2-2::unsupported"]


def test_lane_mixing_names_where_the_value_really_lives() -> None:
    text = overlay("acme.tasks.a") + "    time_limit_s: 30\n"
    [finding] = failing(
        Ledger.build([job("acme.tasks.a", line=41)]), parse_overlay(text, "o.yaml"), CONFIG
    )
    assert finding.kind is Kind.LANE_MIXING
    assert (finding.cell, finding.line) == ("time_limit_s", 8)
    assert "src/acme/tasks.py:41" in finding.message
    assert "jobledger extract" in finding.message


def test_finding_round_trips_through_json() -> None:
    finding = Finding(Kind.NOT_YES_NO, "acme.tasks.a", "idempotent", "o.yaml", 3, "msg")
    assert Finding.from_json(json.loads(json.dumps(finding.to_json()))) == finding


def test_fresh_ledger_passes_and_missing_ledger_fails() -> None:
    ledger = Ledger.build([job("acme.tasks.a")])
    assert ledger_status(ledger.dumps(), ledger, CONFIG).finding is None
    # Before: no committed file passed, so a project that never committed one was always green.
    missing = ledger_status(None, ledger, CONFIG).finding
    assert missing is not None
    assert (missing.kind, missing.path, missing.line) == (
        Kind.LEDGER_STALE,
        "generated/job_ledger.json",
        1,
    )
    assert missing.message.startswith(
        "There is no committed ledger at generated/job_ledger.json; run `jobledger extract` and "
        "commit it."
    )


def test_no_ledger_to_commit_for_an_empty_scan_is_skipped_not_failed() -> None:
    check = ledger_status(None, Ledger.build([]), CONFIG)
    assert check.finding is None
    assert check.skipped is not None
    assert "jobs-found" in check.skipped


def test_stale_ledger_summary_names_ids_by_category() -> None:
    old = Ledger.build([job("acme.tasks.a"), job("acme.tasks.gone"), job("acme.tasks.same")])
    new = Ledger.build(
        [job("acme.tasks.a", queue="q"), job("acme.tasks.new"), job("acme.tasks.same")]
    )
    summary = ledger_diff(old.dumps(), new)
    assert summary == "acme.tasks.a: queue null -> q; added acme.tasks.new; removed acme.tasks.gone"
    check = ledger_status(old.dumps(), new, CONFIG)
    assert check.finding is not None
    assert check.finding.kind is Kind.LEDGER_STALE
    assert check.finding.path == "generated/job_ledger.json"
    assert "jobledger extract" in check.finding.message


def test_stale_ledger_explains_text_only_edits_and_garbage() -> None:
    ledger = Ledger.build([job("acme.tasks.a")])
    reformatted = json.dumps(ledger.to_json(), indent=4)
    assert "formatting or key order" in ledger_diff(reformatted, ledger)
    assert "not valid JSON (line 1" in ledger_diff("{not json", ledger)
    many = Ledger.build([job(f"acme.tasks.j{i}") for i in range(8)])
    assert ledger_diff(Ledger.build([]).dumps(), many).endswith("and 3 more")
