"""Review after change, end to end: pytest items, ``jobledger check``, ``jobledger diff`` and
GitHub annotations on a repository the test builds (base commit, head commit)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from reporters.runbook._inert import readable

from pytest_jobledger import git
from pytest_jobledger.cli import main

from ._repo import build_repository
from ._repo import git as run_git

CASES = Path(__file__).resolve().parent.parent / "cases" / "gate"
WARN = CASES / "review_after_change_warn"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = build_repository(WARN, tmp_path)
    monkeypatch.chdir(root)
    monkeypatch.setenv("JOBLEDGER_TODAY", "2025-03-01")
    for name in ("GITHUB_ACTIONS", "GITHUB_EVENT_PATH", "GITHUB_STEP_SUMMARY", "PYTEST_ADDOPTS"):
        monkeypatch.delenv(name, raising=False)
    return root


def test_warn_is_a_passing_item_with_a_pytest_warning(
    pytester: pytest.Pytester, repo: Path
) -> None:
    result = pytester.runpytest_subprocess(
        "--jobledger", "-m", "jobledger", "--jobledger-base", "HEAD~1", "-p", "no:randomly",
        "-rA", "overlays/job_policy.yaml",
    )  # fmt: skip
    assert result.ret == 0
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed", 0) == 0
    assert outcomes["warnings"] == 1
    out = result.stdout.str()
    assert "JobledgerWarning: [review-after-change] Job billing.tasks.capture_invoice" in out
    assert (
        "PASSED overlays/job_policy.yaml::billing.tasks.capture_invoice::review-after-change" in out
    )
    assert "PASSED overlays/job_policy.yaml::jobledger-status::review-base" in out


def test_fail_is_a_failing_item(pytester: pytest.Pytester, repo: Path) -> None:
    pyproject = repo / "pyproject.toml"
    pyproject.write_text('[tool.jobledger]\nreview_on_change = "fail"\n')
    result = pytester.runpytest_subprocess(
        "--jobledger", "-m", "jobledger", "--jobledger-base", "HEAD~1", "-p", "no:randomly",
        "-v", "overlays/job_policy.yaml",
    )  # fmt: skip
    assert result.ret == 1
    # capture_invoice's signed dedupe_guard and its rerun item (late ack) are items too
    result.assert_outcomes(failed=1, passed=23)
    result.stdout.fnmatch_lines(["*[[]review-after-change[]] Job billing.tasks.capture_invoice*"])


def test_no_base_is_one_skipped_status_item(pytester: pytest.Pytester, repo: Path) -> None:
    result = pytester.runpytest_subprocess(
        "--jobledger", "-m", "jobledger", "--jobledger-base", "no-such-ref", "-p", "no:randomly",
        "-rs", "overlays/job_policy.yaml",
    )  # fmt: skip
    assert result.ret == 0
    result.assert_outcomes(passed=22, skipped=1)
    result.stdout.fnmatch_lines(["*no base to review changes against: the ref 'no-such-ref'*"])


def test_github_annotates_a_warning_on_the_overlay_entry(
    pytester: pytest.Pytester, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(repo))
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(repo.parent / "summary.md"))
    result = pytester.runpytest_subprocess(
        "--jobledger", "-m", "jobledger", "--jobledger-base", "HEAD~1", "-p", "no:randomly",
        "overlays/job_policy.yaml",
    )  # fmt: skip
    assert result.ret == 0
    lines = [line for line in result.stdout.lines if line.startswith("::warning ")]
    assert len(lines) == 1
    assert lines[0].startswith("::warning file=overlays/job_policy.yaml,line=2,endLine=2,")
    assert "title=jobledger review-after-change%3A billing.tasks.capture_invoice" in lines[0]
    summary = readable((repo.parent / "summary.md").read_text("utf-8"))
    assert summary.startswith(
        "## Job ledger\n\n### What operators will see change (against `HEAD~1`)\n\n"
        "2 changed, 0 added, 0 removed; 1 overlay entry changed\n\n"
        "| job | change | ledger (from the code) | policy (the overlay) |\n"
    )
    assert "| `billing.tasks.capture_invoice` | changed | queue billing -> default<br>" in summary
    assert "**0 failing**" in summary
    assert "· 1 warning\n" in summary  # one warning, in the singular


def test_the_summary_says_once_that_there_is_no_diff(
    pytester: pytest.Pytester, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(repo.parent / "summary.md"))
    result = pytester.runpytest_subprocess(
        "--jobledger", "-m", "jobledger", "--jobledger-base", "gone", "-p", "no:randomly",
        "-n", "2", "overlays/job_policy.yaml",
    )  # fmt: skip
    assert result.ret == 0
    summary = readable((repo.parent / "summary.md").read_text("utf-8"))
    assert summary.count("No diff against the base") == 1
    assert "the ref 'gone' names no commit" in summary


def test_jobledger_check_lists_the_warning_and_exits_0(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--base", "HEAD~1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("warnings (they do not fail):\n")
    # The first line is the short form (the job is named once, before the kind); -v below
    # prints the whole message.
    assert out.splitlines()[1].startswith(
        "overlays/job_policy.yaml:2: warning: billing.tasks.capture_invoice::review-after-change "
        "[review-after-change] The job changed since HEAD~1 (queue billing ->"
    )
    assert len(out.splitlines()[1]) <= 160
    assert main(["check", "--base", "HEAD~1", "-v"]) == 0
    verbose = " ".join(line.strip() for line in capsys.readouterr().out.splitlines())
    assert (
        "Job billing.tasks.capture_invoice changed since HEAD~1 (queue "
        "billing -> default, max_retries 5 -> 20, "
    ) in verbose
    assert out.endswith("jobledger: 3 jobs, 15 cells signed; 1 warning (not failing)\n")
    assert main(["check", "--base", "HEAD~1", "--format", "sarif"]) == 0
    (result,) = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    assert (result["ruleId"], result["level"]) == ("jobledger/review-after-change", "warning")


def test_jobledger_check_says_once_that_there_is_no_base(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--base", "no-such-ref"]) == 0
    captured = capsys.readouterr()
    assert captured.err.count("no base to review changes against") == 1
    assert captured.out == "jobledger: 3 jobs, 15 cells signed\n"


def test_jobledger_diff_in_three_formats(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "--base", "HEAD~1"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0].startswith("jobledger diff against HEAD~1 (")
    assert text[1:] == [
        "billing.tasks.capture_invoice (changed)",
        "  ledger: queue billing -> default",
        "  ledger: max_retries 5 -> 20",
        "  ledger: time_limit_s 120 -> null (settings.CAPTURE_LIMIT is not a literal)",
        "  ledger: acks_late added (true)",
        "billing.tasks.send_receipt (changed)",
        "  ledger: max_retries not set -> 3",
        "  policy: reviewed_on 2025-01-10 -> 2025-02-01",
        "moved only (not a change): billing.tasks.nightly_report",
    ]
    assert main(["diff", "--base", "HEAD~1", "--format", "markdown"]) == 0
    markdown = readable(capsys.readouterr().out)
    assert "| `billing.tasks.send_receipt` | changed | max_retries not set -> 3 | " in markdown
    assert main(["diff", "--base", "HEAD~1", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [job["id"] for job in data["jobs"]] == [
        "billing.tasks.capture_invoice",
        "billing.tasks.send_receipt",
    ]
    assert data["moved"] == ["billing.tasks.nightly_report"]


def test_jobledger_diff_without_a_base_is_a_usage_error(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["diff", "--base", "no-such-ref"]) == 2
    assert "no base to compare with" in capsys.readouterr().err


def test_no_git_at_all_is_a_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(git.GitUnavailable, match="git is not installed"):
        git.resolve_commit("HEAD", tmp_path)


def test_outside_a_repository_is_a_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    with pytest.raises(git.GitUnavailable, match="not inside a git repository"):
        git.show("0" * 40, tmp_path / "x.json", tmp_path, limit=10)


def test_a_ref_that_looks_like_an_option_is_refused(repo: Path) -> None:
    with pytest.raises(git.GitUnavailable, match="is not a git ref"):
        git.resolve_commit("--output=/tmp/x", repo)


def test_a_symlink_at_the_base_is_not_followed(repo: Path) -> None:
    ledger = repo / "generated" / "job_ledger.json"
    ledger.unlink()
    ledger.symlink_to("/etc/passwd")
    run_git("add", "-A", cwd=repo)
    run_git("commit", "-q", "-m", "symlink", cwd=repo)
    with pytest.raises(git.GitUnavailable, match="is a symlink"):
        git.show(git.resolve_commit("HEAD", repo), ledger, repo, limit=1024)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"jobs": [{"id": 1}]}',
        '{"jobs": [], "n": ' + "9" * 4301 + "}",
    ],
    ids=["deep", "wrong-type", "long-integer"],
)
def test_a_hostile_ledger_at_the_base_is_a_reason_not_a_crash(repo: Path, text: str) -> None:
    """Issue 27: the base's committed ledger is read through the strict JSON reader too."""
    from pytest_jobledger.project import load_config
    from pytest_jobledger.session import read_base

    (repo / "generated" / "job_ledger.json").write_text(text)
    run_git("add", "-A", cwd=repo)
    run_git("commit", "-q", "-m", "hostile ledger", cwd=repo)
    reading = read_base(load_config(root=repo), "HEAD")
    assert reading.base is None
    assert reading.reason is not None
    assert "is not a ledger jobledger can read" in reading.reason
