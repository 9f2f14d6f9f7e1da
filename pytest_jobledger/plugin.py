"""``pytest --jobledger``: every policy cell of every job becomes its own test item.

The items are collected once per session from the configured root, whatever paths pytest was given
(they are added in ``pytest_collection_modifyitems``, before ``-k``, ``-m`` and ``--deselect``
filter), or through the normal walk when the overlay file itself is among the collected paths, so
``pytest --jobledger overlays/job_policy.yaml::<job>::<cell>`` runs one item. Collection is
deterministic, so every pytest-xdist worker collects the same items. Under pytest-xdist the
controller opens the session (:mod:`pytest_jobledger.session`) and evaluates the gate once, and
hands every worker its items (``workerinput``): a session reads and parses the tree once however
many workers it has (:func:`pytest_configure_node`).

Node ids are ``<overlay path relative to rootdir>::<job>::<cell>``; see
:mod:`pytest_jobledger.gate.join` for the names of items that are not cells, and
:mod:`pytest_jobledger.gate.status` for the two status items
(``jobledger-status::overlay-valid`` and ``jobledger-status::ledger-fresh``), plus
``jobledger-status::runbook-fresh`` when ``runbook`` is configured
(:mod:`pytest_jobledger.reporters.runbook.publish`).

A cell the baseline lists as a known failure is a strict ``xfail`` item (reason "in the
baseline"); once fixed it fails as ``baseline-stale`` (:mod:`pytest_jobledger.baseline`).
"""

from __future__ import annotations

import datetime
import json
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .core.errors import JobledgerError
from .core.text import one_line
from .findings import (
    CHANGES_PROPERTY,
    FINDING_PROPERTY,
    STATUS_JOB,
    Check,
    Finding,
    GateResult,
    Level,
    Status,
)

if TYPE_CHECKING:
    from .project import Config
    from .session import Session

# Only what every pytest run needs is imported here: pytest loads this plugin in every session of
# every project that has the package installed, with or without --jobledger. The gate (libcst,
# ruamel.yaml, jsonschema) is imported when --jobledger asks for it.

MARKER = "jobledger"
#: The reason of a baselined cell's ``xfail`` (``pytest -rx`` lists it).
BASELINED = "in the baseline"


@dataclass
class _State:
    """Per-session plugin state (in ``config.stash``): the configuration, the session's one
    reading of the project, and the gate's result (a worker's is handed over by the controller)."""

    config: Config
    collected: bool = False
    _result: GateResult | None = field(default=None, repr=False)
    _session: Session | None = field(default=None, repr=False)

    base: str | None = None
    today: datetime.date | None = None

    def session(self) -> Session:
        """The project as read once (on the controller under xdist)."""
        if self._session is None:
            from .session import Session

            self._session = Session.open(self.config, base=self.base, today=self.today)
        return self._session

    def result(self) -> GateResult:
        if self._result is None:
            # The same items as `jobledger check`: the gate's, and the runbook's freshness.
            self._result = self.session().fresh_view
        return self._result


_STATE = pytest.StashKey[_State]()
#: The ``workerinput`` key the xdist controller hands its gate items to workers under.
WORKER_RESULT = "jobledger_result"


class JobledgerWarning(UserWarning):
    """A finding at the warning level: its item passes, and pytest lists it under warnings."""


class JobledgerFailure(Exception):
    """Raised by a failing item; ``repr_failure`` prints its finding as plain text."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.message)
        self.finding = finding


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("jobledger", "job ledger gate (pytest-jobledger)")
    group.addoption(
        "--jobledger",
        action="store_true",
        default=None,
        help="add one item per job and required overlay cell, plus the ledger's status items",
    )
    group.addoption(
        "--jobledger-root",
        metavar="DIR",
        default=None,
        help="project root for the gate (default: the folder of the nearest pyproject.toml "
        "at or above the current folder, as for `jobledger check`)",
    )
    group.addoption(
        "--jobledger-config",
        metavar="FILE",
        default=None,
        help="TOML file with a [tool.jobledger] table (default: ROOT/pyproject.toml)",
    )
    group.addoption(
        "--jobledger-base",
        metavar="REF",
        default=None,
        help="git ref whose committed ledger and overlay review-after-change compares with",
    )
    group.addoption(
        "--jobledger-today",
        metavar="YYYY-MM-DD",
        default=None,
        help="the day reviews are dated against (default: $JOBLEDGER_TODAY, else today)",
    )
    group.addoption(
        "--jobledger-no-cache",
        action="store_true",
        default=False,
        help="extract without the content cache (neither read nor written)",
    )
    parser.addini("jobledger", type="bool", default=False, help="run the gate as --jobledger does")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", f"{MARKER}: a job ledger gate item (select them with -m {MARKER})"
    )
    if not gate_enabled(config):
        return
    from .gate.today import resolve_today
    from .project import load_config

    base = config.invocation_params.dir
    root = config.getoption("jobledger_root")
    config_file = config.getoption("jobledger_config")
    try:
        settings = load_config(
            root=base / root if root else None,
            config_file=base / config_file if config_file else None,
            cwd=base,
            options=("--jobledger-root", "--jobledger-config"),
        )
        today = resolve_today(config.getoption("jobledger_today"), flag="--jobledger-today")
    except JobledgerError as error:
        raise pytest.UsageError(one_line(f"jobledger: {error}")) from error
    if config.getoption("jobledger_no_cache"):
        settings = settings.without_cache()
    state = _State(settings, base=config.getoption("jobledger_base"), today=today)
    handed = getattr(config, "workerinput", {}).get(WORKER_RESULT)
    if isinstance(handed, str):
        state._result = _handed_result(handed)
    config.stash[_STATE] = state
    config.pluginmanager.register(_QuietPhases(config), "jobledger-quiet-phases")


#: Set on the setup and teardown reports of a ledger item (a report's attributes travel with it
#: from an xdist worker to the controller).
_PHASE = "jobledger_phase"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    outcome = yield
    if isinstance(item, CellItem) and call.when != "call":
        setattr(outcome.get_result(), _PHASE, True)


class _QuietPhases:
    """Keeps a ledger item's empty setup and teardown reports out of the terminal's pool of
    passed phases (``stats[""]``): for each failure pytest scans that whole pool for the item's
    teardown output, so 50,000 failing items (a baseline of stale entries) cost 50,000 x 100,000
    comparisons, minutes to hours. Those reports hold no output to show; nothing else reads
    them."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if not getattr(report, _PHASE, False) or not report.passed or report.sections:
            return
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        pool = getattr(reporter, "stats", {}).get("")
        if pool and pool[-1] is report:
            pool.pop()


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """pytest-xdist, on the controller, before a worker starts: hand it the gate's items,
    evaluated once for the session, so no worker reads or parses the project again and all
    collect the same items. A session that cannot be opened (a usage error) is left to each
    worker, which reports it as it would alone."""
    state = node.config.stash.get(_STATE, None)
    if state is None:
        return
    try:
        result = state.result()
    except JobledgerError:
        return
    changes = result.changes.to_json() if result.changes is not None else None
    handed = {"checks": [check.to_json() for check in result.checks], "changes": changes}
    node.workerinput[WORKER_RESULT] = json.dumps(handed)


def _handed_result(text: str) -> GateResult:
    """A worker's gate result, as the controller evaluated it: the items and what changed since
    the base (the joined jobs stay on the controller, whose presenters read them)."""
    from .findings import ChangeReport

    data = json.loads(text)
    changes = data.get("changes")
    return GateResult(
        tuple(Check.from_json(check) for check in data["checks"]),
        changes=ChangeReport.from_json(changes) if isinstance(changes, dict) else None,
    )


def gate_config(config: pytest.Config) -> Config:
    """The gate's configuration for this session, for presenters (KeyError when the gate is off)."""
    return config.stash[_STATE].config


def gate_result(config: pytest.Config) -> GateResult:
    """The gate's result for this session (every item's check and the joined jobs), for
    presenters; evaluated once (KeyError when the gate is off)."""
    return config.stash[_STATE].result()


def gate_enabled(config: pytest.Config) -> bool:
    """Whether ``--jobledger`` (or its ini switch) asked for the ledger items."""
    option = config.getoption("jobledger", default=None)
    if option is not None:
        return bool(option)
    try:
        return bool(config.getini("jobledger"))
    except ValueError:  # the gate plugin is not registered (``-p no:jobledger``)
        return False


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> OverlayFile | None:
    state = parent.config.stash.get(_STATE, None)
    if state is None or file_path.name != state.config.overlay_path.name:
        return None
    if file_path.resolve() != state.config.overlay_path.resolve():
        return None
    state.collected = True
    return OverlayFile.from_parent(parent, path=file_path)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    state = config.stash.get(_STATE, None)
    if state is None or state.collected:
        return
    state.collected = True
    node = OverlayFile.from_parent(session, path=state.config.overlay_path)
    items.extend(session.genitems(node))


class OverlayFile(pytest.File):
    """The overlay as a collector: one child per job (or status, orphan, unsupported place)."""

    def collect(self) -> Iterable[JobNode]:
        state = self.config.stash[_STATE]
        try:
            result = state.result()
        except JobledgerError as error:
            raise self.CollectError(one_line(f"jobledger: {error}")) from error
        groups: dict[str, list[Check]] = {}
        for check in result.checks:
            groups.setdefault(check.job, []).append(check)
        for job, group in groups.items():
            yield JobNode.from_parent(self, name=one_line(job), checks=tuple(group))


class JobNode(pytest.Collector):
    """One job id: its cells are the items."""

    def __init__(self, *, checks: tuple[Check, ...], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.checks = checks

    def collect(self) -> Iterator[CellItem]:
        for check in self.checks:
            yield CellItem.from_parent(self, name=one_line(check.cell), check=check)


class CellItem(pytest.Item):
    """One (job, cell) pair or status: passes when signed, fails with the finding's message."""

    def __init__(self, *, check: Check, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.check = check
        self.add_marker(MARKER)
        if check.job == STATUS_JOB and check.cell == Status.BASE.value:
            # What changed since the base travels to the presenters (the job summary) with this
            # item's reports, whether it passes or is skipped (no base).
            changes = self.config.stash[_STATE].result().changes
            data = changes.to_json() if changes is not None else {"unavailable": check.skipped}
            self.user_properties.append((CHANGES_PROPERTY, data))
        if check.finding is not None and check.finding.baselined:
            # A known failure: strict, so the item can never pass quietly while it is listed.
            self.add_marker(pytest.mark.xfail(reason=BASELINED, strict=True))
        if check.skipped is not None:
            # A skip marker, not pytest.skip() in runtest: pytest then reports the skip at
            # reportinfo() (the overlay's line), not at a line of this module.
            self.add_marker(pytest.mark.skip(reason=check.skipped))

    def runtest(self) -> None:
        finding = self.check.finding
        if finding is None:
            return
        self.user_properties.append((FINDING_PROPERTY, finding.to_json()))
        if finding.level is Level.WARNING:
            text = one_line(f"[{finding.kind.value}] {finding.message}")
            warnings.warn_explicit(
                JobledgerWarning(text),
                category=JobledgerWarning,
                filename=str(self.config.stash[_STATE].config.root / finding.path),
                lineno=finding.line,
            )
        elif finding.level.fails or finding.baselined:
            raise JobledgerFailure(finding)

    def repr_failure(
        self,
        excinfo: pytest.ExceptionInfo[BaseException],
        style: Any = None,
    ) -> str | Any:
        if isinstance(excinfo.value, JobledgerFailure):
            # The short form `jobledger check` prints: one line of at most 160 characters, so
            # 200 unsigned cells stay 200 short lines; `pytest -v` prints the whole message.
            from .reporters.short import fitted

            finding = excinfo.value.finding
            kind = f"[{finding.kind.value}] "
            if self.config.getoption("verbose") > 0:
                return kind + one_line(finding.message)
            return kind + fitted(finding, len(kind), named=False)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int, str]:
        state = self.config.stash[_STATE]
        # Not the node id's tail: pytest would print the job id's dots as "::" in -v output.
        where = f"{one_line(self.check.job)} ({one_line(self.check.cell)})"
        return state.config.root / self.check.path, self.check.line - 1, where
