"""GitHub Actions face of ``pytest --jobledger``: annotations, the job summary, SARIF, outputs.

Inert unless the gate runs (``--jobledger``). Annotations and the summary are on when
``GITHUB_ACTIONS=true`` or forced (``--jobledger-annotate`` / ini ``jobledger_annotate``, for a
container that hides the variable). Findings reach the controller inside each report's
``user_properties``, so under xdist only the controller (which has no ``workerinput``) presents.

Three things keep the log honest. The session runs inside ``::stop-commands::``, so a hostile
job id or YAML value echoed in a node id or failure text cannot act as a workflow command. Our
own commands come after it, escaped, PR files first, capped at the per-step limit with a notice
for the rest. pytest-github-actions-annotate-failures, when installed, still annotates ordinary
tests (its output is held back until commands resume) but not the ledger items we annotate.
"""

from __future__ import annotations

import contextlib
import io
import os
import secrets
import sys
import warnings
from collections.abc import Generator, Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

import pytest

from ..core.atomic import atomic_write, refusal
from ..core.errors import JobledgerError
from ..core.text import one_line
from ..findings import CHANGES_PROPERTY, FINDING_PROPERTY, STATUS_JOB, ChangeReport, Finding
from ..plugin import JobledgerWarning, gate_config, gate_enabled, gate_result

# The reporters (SARIF, the job summary, the runbook rows) are imported when a report is written:
# pytest loads this plugin in every session, with or without --jobledger.
from .commands import annotation_lines, display_path, real_path, workflow_command
from .context import (
    GitHubContext,
    changed_files,
    changed_lines,
    changed_lines_by_file,
    read_event,
    write_outputs,
)

PLUGIN_NAME = "jobledger-github"
#: ``--jobledger-annotations`` (the action's ``annotations`` input), as reviewdog's
#: ``filter-mode``: annotate what the pull request changed, or everything.
ANNOTATION_MODES = ("changed", "all")
#: The names pytest-github-actions-annotate-failures registers its hooks under.
OTHER_ANNOTATORS = ("annotate_errors", "annotate_warnings")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("jobledger")
    group.addoption(
        "--jobledger-annotate",
        action="store_true",
        default=None,
        help="emit GitHub annotations and a job summary even when GITHUB_ACTIONS is not 'true'",
    )
    group.addoption(
        "--jobledger-sarif",
        metavar="PATH",
        default=None,
        help="also write the ledger findings to PATH as SARIF 2.1.0 (for code scanning)",
    )
    group.addoption(
        "--jobledger-annotations",
        choices=ANNOTATION_MODES,
        default=None,
        help="which findings get an annotation on a pull request: 'changed' (the default: those "
        "on lines it changed, of jobs it changed, and failing status items) or 'all'",
    )
    parser.addini(
        "jobledger_annotations",
        default="changed",
        help="as --jobledger-annotations: changed or all",
    )
    parser.addini(
        "jobledger_annotate",
        type="bool",
        default=False,
        help="always emit GitHub annotations and a job summary for the ledger items",
    )


def annotate_enabled(config: pytest.Config, environ: Any = None) -> bool:
    env = os.environ if environ is None else environ
    forced = config.getoption("jobledger_annotate") or config.getini("jobledger_annotate")
    return bool(forced) or env.get("GITHUB_ACTIONS") == "true"


def project_root(config: pytest.Config) -> Path:
    """The root the gate's findings are relative to (the gate plugin's own configuration)."""
    return gate_config(config).root


def carries_finding(report: pytest.TestReport) -> bool:
    return any(name == FINDING_PROPERTY for name, _ in report.user_properties)


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput") or not gate_enabled(config):
        return
    annotate = annotate_enabled(config)
    sarif = config.getoption("jobledger_sarif")
    if not annotate and not sarif:
        return
    if sarif:
        target = config.invocation_params.dir / sarif
        problem = unwritable_target(target) or refusal(
            target, root=project_root(config), named_by_operator=True
        )
        if problem is not None:
            raise pytest.UsageError(f"jobledger: --jobledger-sarif {sarif}: {problem}")
    presenter = GitHubPresenter(
        config,
        annotate=annotate,
        sarif=Path(sarif) if sarif else None,
        context=GitHubContext.from_environ(),
    )
    if annotate:
        for name in OTHER_ANNOTATORS:
            other = config.pluginmanager.get_plugin(name)
            if other is not None and not isinstance(other, _Deferred):
                config.pluginmanager.unregister(other)
                config.pluginmanager.register(_Deferred(other, presenter.deferred), name)
    config.pluginmanager.register(presenter, PLUGIN_NAME)


class _Deferred:
    """pytest-github-actions-annotate-failures, held back until commands are on again.

    Its commands are printed after ours (commands are stopped while tests run), and never for a
    ledger item: our annotation points at the same line with the finding's own title, so theirs
    would be a duplicate eating into the per-step annotation limit.
    """

    def __init__(self, inner: Any, sink: list[str]) -> None:
        self.inner = inner
        self.sink = sink

    def _call(self, name: str, *args: Any) -> None:
        hook = getattr(self.inner, name, None)
        if hook is None:
            return
        buffer = io.StringIO()
        with contextlib.redirect_stderr(buffer), contextlib.redirect_stdout(buffer):
            hook(*args)
        self.sink.extend(buffer.getvalue().splitlines())

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if not carries_finding(report):
            self._call("pytest_runtest_logreport", report)

    def pytest_warning_recorded(
        self,
        warning_message: warnings.WarningMessage,
        when: str,
        nodeid: str,
        location: tuple[str, int, str] | None,
    ) -> None:
        if issubclass(warning_message.category, JobledgerWarning):
            return  # a ledger item's warning: annotated once, by us, on the overlay entry
        self._call("pytest_warning_recorded", warning_message, when, nodeid, location)


class GitHubPresenter:
    """Collects the findings from reports, then presents them once at the end of the session.

    While the session runs, workflow commands are stopped (``::stop-commands::<token>``): node
    ids and failure texts echo job ids and YAML keys verbatim, and a line in them must not be
    taken for a command. Commands resume at the end of the terminal summary, before ours.
    """

    def __init__(
        self, config: pytest.Config, *, annotate: bool, sarif: Path | None, context: GitHubContext
    ) -> None:
        self.config = config
        self.annotate = annotate
        self.sarif = sarif
        self.context = context
        self.findings: set[Finding] = set()
        self.changes: ChangeReport | None = None
        self.no_changes: str | None = None
        self.deferred: list[str] = []
        self.token = secrets.token_hex(16)
        self.stopped = False
        self.presented = False
        self.exitstatus: int | None = None

    def _write(self, line: str) -> None:
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(line)
        else:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        if self.annotate:
            self._write(f"::stop-commands::{self.token}")
            self.stopped = True

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # A passing item carries its warning or notice the same way a failing one does.
        for name, value in report.user_properties:
            if name == FINDING_PROPERTY and isinstance(value, dict):
                self.findings.add(Finding.from_json(value))
            elif name == CHANGES_PROPERTY and isinstance(value, dict):
                if "unavailable" in value:
                    self.no_changes = str(value["unavailable"])
                else:
                    self.changes = ChangeReport.from_json(value)

    def pytest_sessionfinish(self, exitstatus: int | pytest.ExitCode) -> None:
        self.exitstatus = int(exitstatus)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_terminal_summary(self) -> Generator[None, None, None]:
        yield
        self._present()

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self._present()  # when there was no terminal summary (-p no:terminal, an interrupt)
        self._write_files()

    def _present(self) -> None:
        if self.stopped:
            self._write(f"::{self.token}::")
            self.stopped = False
        if not self.annotate or self.presented:
            return
        self.presented = True
        for line in [*self._annotation_lines(), *self.deferred]:
            self._write(line)

    def _annotation_lines(self) -> list[str]:
        if not self.findings:
            return []
        root = project_root(self.config)
        summary = self.context.step_summary is not None
        see = "the job summary and the pytest output" if summary else "the pytest output"
        findings, left = self._annotated(root)
        lines = annotation_lines(
            findings,
            root=root,
            workspace=self.context.workspace,
            changed=self._changed_files,
            see=see,
        )
        if left:
            noun = "finding is" if left == 1 else "findings are"
            lines.append(
                workflow_command(
                    "notice",
                    f"{left} jobledger {noun} on lines this pull request did not change and not "
                    f"annotated (`annotations: all` annotates them); see {see}.",
                    [("title", "jobledger: findings outside this pull request's changes")],
                )
            )
        return lines

    def _annotated(self, root: Path) -> tuple[set[Finding], int]:
        """The findings to annotate, and how many were left out: with ``changed`` (the default)
        on a pull request, those on the lines it changed, of the jobs it changed (a changed
        registration or entry), and failing status items; everything when the diff cannot be
        told offline, or with ``all``."""
        mode = self.config.getoption("jobledger_annotations") or self.config.getini(
            "jobledger_annotations"
        )
        if mode not in ANNOTATION_MODES:
            raise pytest.UsageError(
                f"jobledger_annotations must be one of {', '.join(ANNOTATION_MODES)}, "
                f"not {one_line(str(mode))!r}"
            )
        if mode == "all":
            return self.findings, 0
        from .runbook import changed_jobs

        lines = changed_lines_by_file(self.context, root, self._event)
        if lines is None:
            return self.findings, 0
        try:
            result = gate_result(self.config)
        except JobledgerError:
            return self.findings, 0
        jobs = set(
            changed_jobs(result, gate_config(self.config), self._changed_files, self._changed_lines)
        )

        def touched(finding: Finding) -> bool:
            if finding.job == STATUS_JOB:
                return finding.level.fails
            path = real_path(finding, root)
            return finding.job in jobs or (path is not None and finding.line in lines.get(path, ()))

        kept = {finding for finding in self.findings if touched(finding)}
        return kept, len(self.findings) - len(kept)

    # What the pull request changed is read once per session (the payload, then one git diff
    # for the files and one for the overlay's lines), however many presenters ask.
    @cached_property
    def _event(self) -> Mapping[str, object]:
        return read_event(self.context.event_path)

    @cached_property
    def _changed_files(self) -> frozenset[Path]:
        return changed_files(self.context, project_root(self.config), self._event)

    @cached_property
    def _changed_lines(self) -> frozenset[int] | None:
        settings = gate_config(self.config)
        return changed_lines(self.context, settings.overlay_path, settings.root, self._event)

    def _write_files(self) -> None:
        """Write the SARIF log, the job summary and the step outputs, each on its own.

        A file that cannot be written (a folder, a missing folder, a full disk) is reported on
        stderr and as a warning annotation, and the others are still written; the exit status
        stays the gate's own: 0 when every item passed, 1 when one failed. A presenter's failure
        must neither turn a clean gate red nor hide a red one.
        """
        from .sarif import dumps, sarif_log
        from .summary import counts

        root = project_root(self.config)
        outputs: dict[str, str | int] = {}
        problems: list[str] = []
        if self.sarif is not None:
            target = self.config.invocation_params.dir / self.sarif
            try:
                log = sarif_log(self.findings, root=root, workspace=self.context.workspace)
                atomic_write(target, dumps(log), root=root, named_by_operator=True)
                outputs["sarif"] = str(target)
            except OSError as error:
                problems.append(f"the SARIF report {target}: {error.strerror or error}")
        if self.annotate and self.context.step_summary is not None:
            try:
                self._write_summary(root, self.context.step_summary)
            except OSError as error:
                problems.append(
                    f"the job summary {self.context.step_summary}: {error.strerror or error}"
                )
        if self.annotate and self.context.output is not None:
            try:
                write_outputs(self.context.output, {**counts(self.findings), **outputs})
            except (OSError, ValueError) as error:
                reason = getattr(error, "strerror", None) or error
                problems.append(f"the step outputs {self.context.output}: {reason}")
        self._report_unwritten(problems)

    def _write_summary(self, root: Path, summary: Path) -> None:
        from .summary import append_summary

        def locate(finding: Finding) -> str:
            path = display_path(finding, root, self.context.workspace)
            return f"{path}:{finding.line}" if path else "(no file)"

        complete = self.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED)
        append_summary(
            summary,
            self.findings,
            locate=locate,
            incomplete=None if complete else f"pytest exit status {self.exitstatus}",
            changes=self.changes,
            no_changes=self.no_changes,
            extra=self._runbook_rows if complete else None,
        )

    def _report_unwritten(self, problems: list[str]) -> None:
        if not problems:
            return
        from .summary import counts

        failing = counts(self.findings)["failing-cells"]
        verdict = f"{failing} failing ledger items" if failing else "no failing ledger item"
        for problem in problems:
            message = one_line(
                f"jobledger: could not write {problem}. The gate's result is unchanged "
                f"({verdict}; exit status {self.exitstatus})."
            )
            sys.stderr.write(message + "\n")
            if self.annotate:
                sys.stderr.write(workflow_command("warning", message) + "\n")
        sys.stderr.flush()

    def _runbook_rows(self, limit_bytes: int) -> str:
        """The runbook's index rows of the jobs this pull request changed (or nothing)."""
        from .runbook import changed_jobs, runbook_section

        settings = gate_config(self.config)
        try:
            result = gate_result(self.config)
        except JobledgerError:
            return ""
        ids = changed_jobs(result, settings, self._changed_files, self._changed_lines)
        return runbook_section(result, settings, ids, limit_bytes)


def unwritable_target(path: Path) -> str | None:
    """Why a report cannot be written at ``path`` (a folder there, or a file where one of its
    folders must be), found before the gate runs; ``None`` when it looks writable."""
    if path.is_dir():
        return "is a folder; give the path of a file to write"
    for parent in path.parents:
        if parent.exists():
            return None if parent.is_dir() else f"{parent} is a file, not a folder"
    return None
