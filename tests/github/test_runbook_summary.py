"""The job summary's runbook section: which jobs a pull request changed, and their index rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import git
from repo_files import copy_tracked

# tests/ is on sys.path (rootdir-relative test packages), so the shared parser helper is importable.
from reporters.runbook._inert import foreign_markup, readable

from pytest_jobledger.github.context import GitHubContext, changed_lines
from pytest_jobledger.github.runbook import changed_jobs, runbook_section
from pytest_jobledger.github.summary import append_summary
from pytest_jobledger.project import load_config
from pytest_jobledger.session import evaluate

REPO = Path(__file__).resolve().parents[2]
HOMEGROWN = REPO / "examples" / "homegrown"
HOSTILE = REPO / "tests" / "cases" / "runbook" / "hostile"
PARTLY = REPO / "tests" / "cases" / "runbook" / "partly_signed"
CAPTURE = "acme.billing.tasks.capture_invoice"
RECEIPT = "acme.billing.tasks.send_receipt"
OVERLAY = "overlays/job_policy.yaml"


@pytest.fixture
def pull_request(tmp_path: Path) -> tuple[Path, GitHubContext]:
    """The homegrown example in a repository whose pull request rewords one signed cell."""
    repo = tmp_path / "repo"
    copy_tracked(HOMEGROWN, repo)
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "base")
    base = git(repo, "rev-parse", "HEAD")
    overlay = repo / OVERLAY
    text = overlay.read_text("utf-8").replace("messaging-oncall", "mail-oncall")
    overlay.write_text(text, encoding="utf-8")
    git(repo, "commit", "-q", "-am", "change the receipt's owner")
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"base": {"sha": base}}}))
    return repo, GitHubContext(workspace=repo, event_path=event)


def test_a_changed_overlay_line_names_its_job(pull_request: tuple[Path, GitHubContext]) -> None:
    repo, context = pull_request
    lines = changed_lines(context, repo / OVERLAY)
    assert lines == {14}
    config = load_config(root=repo)
    result = evaluate(config)
    assert changed_jobs(result, config, [], lines) == [RECEIPT]


def test_a_changed_source_file_names_every_job_it_registers() -> None:
    config = load_config(root=HOMEGROWN)
    result = evaluate(config)
    tasks = HOMEGROWN / "src" / "acme" / "billing" / "tasks.py"
    assert changed_jobs(result, config, [tasks], None) == [CAPTURE, RECEIPT]
    assert changed_jobs(result, config, [HOMEGROWN / "README.md"], None) == []


def test_without_a_pull_request_the_overlay_lines_are_unknown(tmp_path: Path) -> None:
    assert changed_lines(GitHubContext(), tmp_path / OVERLAY) is None


def test_the_rows_are_the_runbooks_and_stay_inert() -> None:
    config = load_config(root=HOSTILE)
    result = evaluate(config)
    ids = [row.job.id for row in result.jobs]
    text = runbook_section(result, config, ids, 64 * 1024)
    assert text.startswith("### Runbook: the jobs this pull request changed\n")
    assert "Preview" not in text
    assert text.count("\n| ") == 2 + len(ids)  # the header, its rule, one row per job
    assert foreign_markup(text) == []


def test_while_cells_fail_the_rows_are_a_marked_preview() -> None:
    config = load_config(root=PARTLY)
    result = evaluate(config)
    text = runbook_section(result, config, ["acme.billing.tasks.refund_invoice"], 64 * 1024)
    assert "> **Preview:** 8 checks of the gate fail" in text
    assert "**[UNSIGNED]**" in text


def test_the_section_fits_the_budget_and_says_what_it_left_out() -> None:
    config = load_config(root=HOSTILE)
    result = evaluate(config)
    ids = [row.job.id for row in result.jobs]
    full = runbook_section(result, config, ids, 64 * 1024)
    budget = len(full.encode("utf-8")) - 150
    short = runbook_section(result, config, ids, budget)
    assert len(short.encode("utf-8")) <= budget
    assert "**Truncated:**" in short
    assert runbook_section(result, config, ids, 200) == ""
    assert runbook_section(result, config, [], 64 * 1024) == ""


def test_appended_after_the_findings(tmp_path: Path) -> None:
    config = load_config(root=HOMEGROWN)
    result = evaluate(config)
    summary = tmp_path / "summary.md"
    append_summary(
        summary, [], extra=lambda limit: runbook_section(result, config, [CAPTURE], limit)
    )
    text = readable(summary.read_text("utf-8"))
    assert text.index("## Job ledger") < text.index("### Runbook: the jobs this pull request")
    assert "| `acme.billing.tasks.capture_invoice` | billing-oncall | no |" in text
    assert "| 5 | not stated, soft 120 s | `billing` |" in text


def test_the_action_summary_shows_the_changed_jobs(
    pytester: pytest.Pytester,
    pull_request: tuple[Path, GitHubContext],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo, context = pull_request
    assert context.event_path is not None
    monkeypatch.chdir(repo)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(repo))
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(context.event_path))
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(repo.parent / "summary.md"))
    monkeypatch.delenv("GITHUB_OUTPUT", raising=False)
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)
    result = pytester.runpytest_subprocess("--jobledger", "-p", "no:randomly", OVERLAY)
    result.assert_outcomes(passed=13)
    summary = readable((repo.parent / "summary.md").read_text("utf-8"))
    assert "### Runbook: the jobs this pull request changed" in summary
    assert (
        "| `acme.billing.tasks.send_receipt` | mail-oncall | yes | drop after the last retry; "
        "log the invoice id, never the email address | 8 | not stated, soft 30 s | `mail` |"
        in summary
    )
    assert CAPTURE not in summary
