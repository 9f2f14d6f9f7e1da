"""``pytest --jobledger`` on GitHub: annotations once, only on the controller, after the log."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest
from repo_files import copy_tracked
from reporters.runbook._inert import readable

from ._commands import Command, active_commands, commands

EXAMPLE = Path(__file__).parents[2] / "examples" / "celery"
OVERLAY = "overlays/job_policy.yaml"


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The celery example below a workspace, with one unquoted yes and one orphan entry."""
    workspace = pytester.path
    root = workspace / "services" / "shop"
    copy_tracked(EXAMPLE, root)
    overlay = root / OVERLAY
    text = overlay.read_text(encoding="utf-8")
    text = text.replace('idempotent: "yes"', "idempotent: yes", 1)
    overlay.write_text(text + '\n  acme.gone,job:\n    idempotent: "no"\n', encoding="utf-8")
    (root / "tests").mkdir()
    (root / "tests" / "test_plain.py").write_text("def test_plain():\n    assert 1 == 2\n")
    monkeypatch.chdir(root)
    monkeypatch.setenv("GITHUB_WORKSPACE", str(workspace))
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(workspace / "summary.md"))
    monkeypatch.setenv("GITHUB_OUTPUT", str(workspace / "output.txt"))
    monkeypatch.delenv("GITHUB_EVENT_PATH", raising=False)
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)
    return root


def errors(stdout: str) -> list[Command]:
    return [c for c in active_commands(stdout) if c.name == "error"]


def ledger_errors(stdout: str) -> list[Command]:
    return [
        c
        for c in active_commands(stdout)
        if c.name == "error" and c.properties.get("title", "").startswith("jobledger ")
    ]


EXPECTED = {
    ("services/shop/overlays/job_policy.yaml", "4"),
    ("services/shop/overlays/job_policy.yaml", "60"),
}


@pytest.mark.parametrize("xdist", [[], ["-n", "2"]], ids=["no-xdist", "xdist"])
def test_each_finding_is_annotated_once_at_its_workspace_path(
    pytester: pytest.Pytester,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    xdist: list[str],
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result = pytester.runpytest_subprocess(
        "--jobledger", "-m", "jobledger", "-p", "no:randomly", *xdist, OVERLAY
    )
    assert result.ret == 1
    result.assert_outcomes(failed=2, passed=42)
    stdout = result.stdout.str()
    found = ledger_errors(stdout)
    assert {(c.properties["file"], c.properties["line"]) for c in found} == EXPECTED
    assert len(found) == 2
    orphan = next(c for c in found if c.properties["line"] == "60")
    assert orphan.properties["title"] == "jobledger orphan: acme.gone,job::orphan"
    outputs = (project.parent.parent / "output.txt").read_text().splitlines()
    assert outputs == ["failing-cells=2", "unsigned-jobs=0", "orphans=1"]
    summary = readable((project.parent.parent / "summary.md").read_text())
    assert "`services/shop/overlays/job_policy.yaml:60`" in summary


def test_the_failure_text_cannot_issue_commands(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hostile overlay key is echoed in pytest's own failure text; it must stay inert."""
    overlay = project / OVERLAY
    overlay.write_text(
        overlay.read_text() + '  "evil\\n::error file=forged.py,line=1::forged":\n    x: y\n'
    )
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result = pytester.runpytest_subprocess("--jobledger", "-m", "jobledger", "-vv", OVERLAY)
    stdout = result.stdout.str()
    assert "::error file=forged.py" in stdout  # pytest echoes the key verbatim...
    active = active_commands(stdout)
    assert "forged.py" not in {c.properties.get("file") for c in active}  # ...but inertly
    assert len(ledger_errors(stdout)) == 3


def test_nothing_happens_outside_github_actions(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    result = pytester.runpytest_subprocess("--jobledger", "-m", "jobledger", OVERLAY)
    assert result.ret == 1
    assert commands(result.stdout.str()) == []
    assert not (project.parent.parent / "summary.md").exists()


def test_the_option_forces_annotations_in_a_container(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    result = pytester.runpytest_subprocess(
        "--jobledger", "-m", "jobledger", "--jobledger-annotate", OVERLAY
    )
    assert len(ledger_errors(result.stdout.str())) == 2


def test_without_the_gate_the_plugin_is_inert(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result = pytester.runpytest_subprocess("-p", "no:github-actions-annotate-failures", "tests")
    assert result.ret == 1
    assert ledger_errors(result.stdout.str()) == []
    assert not (project.parent.parent / "summary.md").exists()


def test_sarif_is_written_where_asked(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    pytester.runpytest_subprocess(
        "--jobledger", "-m", "jobledger", "--jobledger-sarif", "out/ledger.sarif", OVERLAY
    )
    log = json.loads((project / "out" / "ledger.sarif").read_text())
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in log["runs"][0]["results"]
    }
    assert uris == {"services/shop/overlays/job_policy.yaml"}


@pytest.mark.skipif(
    importlib.util.find_spec("pytest_github_actions_annotate_failures") is None,
    reason="pytest-github-actions-annotate-failures is not installed",
)
def test_no_double_annotations_next_to_annotate_failures(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result = pytester.runpytest_subprocess("--jobledger", OVERLAY, "tests")
    assert result.ret == 1
    output = result.stdout.str() + "\n" + result.stderr.str()
    found = errors(output)
    ledger = [c for c in found if c.properties.get("file", "").endswith("job_policy.yaml")]
    assert len(ledger) == 2, "each ledger finding is annotated exactly once"
    plain = [c for c in found if c.properties.get("file", "").endswith("test_plain.py")]
    assert len(plain) == 1, "ordinary test failures are still annotated by the other plugin"


def test_a_usage_error_is_not_summarised_as_clean(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result = pytester.runpytest_subprocess("--jobledger", "-k", "not (", OVERLAY)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    summary = (project.parent.parent / "summary.md").read_text()
    assert "did not complete" in summary
    assert "no findings" not in summary


# -- a report that cannot be written -----------------------------------------------


def _clean(project: Path) -> None:
    """The celery example as shipped: every cell signed, no ordinary test."""
    shutil.copy(EXAMPLE / OVERLAY, project / OVERLAY)
    shutil.rmtree(project / "tests")


def test_a_sarif_path_that_is_a_folder_is_a_usage_error(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    (project / "out").mkdir()
    result = pytester.runpytest_subprocess("--jobledger", "--jobledger-sarif", "out", OVERLAY)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*jobledger: --jobledger-sarif out: is a folder*"])
    assert "Traceback" not in result.stderr.str()


@pytest.mark.parametrize("red", [False, True], ids=["clean", "red"])
def test_a_full_disk_is_reported_and_keeps_the_gate_result(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch, red: bool
) -> None:
    if not red:
        _clean(project)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    # A device is refused before it is opened (it was once this test's stand-in for a full disk).
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", "/dev/full")
    result = pytester.runpytest_subprocess("--jobledger", "-m", "jobledger", OVERLAY)
    assert result.ret == (pytest.ExitCode.TESTS_FAILED if red else pytest.ExitCode.OK)
    err = result.stderr.str()
    assert "jobledger: could not write the job summary /dev/full: it is not a regular file" in err
    assert "The gate's result is unchanged" in err
    assert "Traceback" not in err
    # The outputs are still written.
    assert "failing-cells=" in (pytester.path / "output.txt").read_text()


def test_a_summary_in_a_missing_folder_does_not_stop_the_sarif(
    pytester: pytest.Pytester, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _clean(project)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(pytester.path / "gone" / "summary.md"))
    result = pytester.runpytest_subprocess(
        "--jobledger", "-m", "jobledger", "--jobledger-sarif", "ledger.sarif", OVERLAY
    )
    assert result.ret == pytest.ExitCode.OK
    assert "could not write the job summary" in result.stderr.str()
    assert json.loads((project / "ledger.sarif").read_text())["runs"][0]["results"] == []
