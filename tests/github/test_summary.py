"""The job summary: totals, a table per kind, escaped values, and a size GitHub accepts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from reporters.runbook._inert import readable

from pytest_jobledger.findings import Finding, Kind
from pytest_jobledger.github.summary import (
    GITHUB_SUMMARY_LIMIT,
    append_summary,
    counts,
    render_summary,
)


def test_totals_then_one_table_per_kind(make_finding: Callable[..., Finding]) -> None:
    findings = [
        make_finding(job="a.one", cell="idempotent", line=3),
        make_finding(job="a.one", cell="paging_owner", line=4),
        make_finding(job="a.gone", cell="", kind=Kind.ORPHAN, line=9, message="no such job"),
    ]
    text = render_summary(findings)
    assert "**3 failing** · 1 unsigned job · 1 orphan" in text
    assert "#### Unsigned cells (2)" in text
    assert "#### Orphan overlay entries (1)" in text
    assert text.index("Unsigned cells (2)") < text.index("Orphan overlay entries (1)")
    assert "| `overlays/job_policy.yaml:9` | `a.gone` |  | no such job |" in readable(text)
    assert counts(findings) == {"failing-cells": 3, "unsigned-jobs": 1, "orphans": 1}


def test_a_clean_run_says_so(make_finding: Callable[..., Finding]) -> None:
    assert "no findings" in render_summary([])


def test_user_text_cannot_break_the_table_or_inject_markup(
    make_finding: Callable[..., Finding],
) -> None:
    finding = make_finding(
        job="x|y`z", message="bad | value <script>alert(1)</script> [a](http://e) *b*\nnext"
    )
    row = next(line for line in render_summary([finding]).splitlines() if "x&#124;y" in line)
    assert row.count(" | ") == 3  # four cells, none split by the hostile pipes
    assert "<script>" not in row
    assert "&#91;a&#93;" in row
    assert "<code>x&#124;y&#96;z</code>" in row
    assert "<br>next" in row


def test_a_huge_run_is_truncated_with_a_note(make_finding: Callable[..., Finding]) -> None:
    findings = [
        make_finding(job=f"acme.jobs.job_{n:05d}", line=n + 1, message="m" * 300)
        for n in range(5000)
    ]
    text = render_summary(findings, limit_bytes=64 * 1024)
    assert len(text.encode("utf-8")) <= 64 * 1024
    assert "**Truncated:**" in text
    assert "of 5000 findings are not listed here" in text


def test_appending_keeps_the_step_file_under_githubs_limit(
    make_finding: Callable[..., Finding], tmp_path: Path
) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("# earlier step output\n" + "x" * (GITHUB_SUMMARY_LIMIT - 200 * 1024))
    findings = [make_finding(job=f"j{n}", line=n + 1, message="m" * 500) for n in range(2000)]
    append_summary(summary, findings)
    size = summary.stat().st_size
    assert size < GITHUB_SUMMARY_LIMIT
    assert "## Job ledger" in summary.read_text()


def test_an_unfinished_run_never_claims_a_clean_ledger(
    make_finding: Callable[..., Finding],
) -> None:
    text = render_summary([], incomplete="pytest exit status 4")
    assert "did not complete" in text
    assert "pytest exit status 4" in text
    assert "no findings" not in text
