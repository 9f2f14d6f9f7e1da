"""The pull request a reviewer reads: what blocks the merge first, known items collapsed, every
table rendering as a table, annotations only on what the pull request changed, and words that
fit (``1 orphan``; no "did you mean" naming an unrelated job).

Tables are checked with a CommonMark parser with GitHub's table extension (markdown-it-py), by
the rule GitHub follows: a table right after a paragraph or a quote, with no blank line between,
is read as that paragraph's text.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from repo_files import copy_tracked
from reporters.runbook._inert import readable

from pytest_jobledger.findings import Finding, Kind, Level
from pytest_jobledger.github.summary import render_summary

REPO = Path(__file__).resolve().parents[2]
HOMEGROWN = REPO / "examples" / "homegrown"
OVERLAY = "overlays/job_policy.yaml"
CAPTURE = "acme.billing.tasks.capture_invoice"
RECEIPT = "acme.billing.tasks.send_receipt"


def table_lines_outside_tables(markdown: str) -> list[str]:
    """Lines that look like table rows but that the parser did not read as part of a table."""
    parser = MarkdownIt("commonmark").enable("table")
    inside: set[int] = set()
    for token in parser.parse(markdown):
        if token.type == "table_open" and token.map is not None:
            inside.update(range(*token.map))
    return [
        line
        for number, line in enumerate(markdown.splitlines())
        if line.startswith("|") and number not in inside
    ]


def tables(markdown: str) -> int:
    parser = MarkdownIt("commonmark").enable("table")
    return sum(1 for token in parser.parse(markdown) if token.type == "table_open")


def test_blocking_rows_come_first_and_known_ones_are_collapsed(
    make_finding: Callable[..., Finding],
) -> None:
    findings = [
        make_finding(job="a.one", cell="idempotent", line=3),
        replace(make_finding(job="a.two", line=9), level=Level.NOTICE, baselined=True),
        make_finding(job="a.gone", cell="", kind=Kind.ORPHAN, line=20, message="no such job"),
    ]
    raw = render_summary(findings)
    text = readable(raw)  # what the page says; the table structure is checked on the raw text
    assert "**2 failing** · 1 unsigned job · 1 orphan · 1 notice" in text
    assert "| Unsigned cells | 1 | 1 |" in text
    blocking = text.index("### Blocking the merge: 2")
    details = text.index("<details><summary>Known, not blocking (baselined notices): 1</summary>")
    assert blocking < text.index("`a.one`") < text.index("`a.gone`") < details
    assert details < text.index("`a.two`") < text.index("</details>")
    assert table_lines_outside_tables(raw) == []
    assert tables(text) == 4  # the totals, the two blocking kinds, the known one


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout.strip()


@pytest.fixture
def pull_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., tuple[str, str]]:
    """The homegrown example whose base baselined capture_invoice's missing paging_owner (a
    known item on a line the pull request leaves alone), and a pull request that blanks the
    receipt's owner (a blocking cell on the line it changed). Returns a runner of the gate as
    the Action runs it: (pytest's output, the job summary)."""
    repo = tmp_path / "repo"
    copy_tracked(HOMEGROWN, repo)
    overlay = repo / OVERLAY
    text = overlay.read_text("utf-8")
    overlay.write_text(text.replace("    paging_owner: billing-oncall\n", ""), "utf-8")
    git(repo, "init", "-q")
    subprocess.run(
        [sys.executable, "-m", "pytest_jobledger", "baseline", "--root", str(repo)],
        check=True,
        capture_output=True,
    )
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "base")
    base = git(repo, "rev-parse", "HEAD")
    text = overlay.read_text("utf-8").replace("paging_owner: messaging-oncall", "paging_owner: ''")
    overlay.write_text(text, "utf-8")
    git(repo, "commit", "-q", "-am", "blank the receipt's owner")
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"base": {"sha": base}}}))
    summary = tmp_path / "summary.md"
    monkeypatch.chdir(repo)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(repo))
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(event))
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.delenv("GITHUB_OUTPUT", raising=False)
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)

    def run(pytester: pytest.Pytester, *args: str) -> tuple[str, str]:
        summary.unlink(missing_ok=True)
        result = pytester.runpytest_subprocess(
            "--jobledger", "-p", "no:randomly", "-p", "no:cacheprovider",
            f"--jobledger-base={base}", *args, OVERLAY,
        )  # fmt: skip
        assert result.ret == 1, result.stdout.str()
        return result.stdout.str(), summary.read_text("utf-8")

    return run


def _annotations(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith(("::error", "::notice"))]


def test_annotations_only_on_what_the_pull_request_changed(
    pytester: pytest.Pytester, pull_request: Callable[..., tuple[str, str]]
) -> None:
    output, summary = pull_request(pytester)
    annotations = _annotations(output)
    assert any(line.startswith("::error") and RECEIPT in line for line in annotations)
    assert not any(CAPTURE in line for line in annotations)
    assert any("not annotated (`annotations: all` annotates them)" in line for line in annotations)
    # The summary still lists everything, the known item collapsed after the blocking one.
    said = readable(summary)
    assert said.index(RECEIPT) < said.index("<details>") < said.index(CAPTURE)
    assert table_lines_outside_tables(summary) == []


def test_annotations_all_annotates_every_finding(
    pytester: pytest.Pytester, pull_request: Callable[..., tuple[str, str]]
) -> None:
    output, _ = pull_request(pytester, "--jobledger-annotations=all")
    annotations = _annotations(output)
    assert any(line.startswith("::notice") and CAPTURE in line for line in annotations)
    assert not any("not annotated" in line for line in annotations)


def test_the_runbook_preview_table_renders_after_its_quote(
    pytester: pytest.Pytester, pull_request: Callable[..., tuple[str, str]]
) -> None:
    _, summary = pull_request(pytester)
    section = summary[summary.index("### Runbook: the jobs this pull request changed") :]
    assert "> **Preview:**" in section
    assert table_lines_outside_tables(section) == []
    assert tables(section) == 1


def test_the_action_passes_the_annotations_input_through_the_environment() -> None:
    action = (REPO / "action.yml").read_text("utf-8")
    assert "  annotations:\n" in action
    assert "JOBLEDGER_ANNOTATIONS: ${{ inputs.annotations }}" in action
    # Only the env line reads the input: it is never pasted into a script.
    assert action.count("inputs.annotations") == 1
