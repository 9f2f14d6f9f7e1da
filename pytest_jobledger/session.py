"""One reading of the project: every command and presenter sees the same joined truth.

A command gets its inputs in one sentence: it opens a :class:`Session` with the configuration
(``Session.open(config, base=..., today=...)``), which reads everything once, with the
configuration's own limits, and asks it for a view.

What is read: the fresh ledger (an extraction of the code), the committed ledger (CRLF line
endings undone, so a Windows checkout is not stale), the overlay, the owners roster, the base's
ledger and overlay (with git, through the same parsers as the tree's), the baseline, the drafts,
and today (``JOBLEDGER_TODAY`` honoured everywhere). A project file is read through the one
reader, :func:`~pytest_jobledger.project.files.read_file` (its limit from the key table), and the
freshness of the committed ledger and of the runbook is decided here, once. The views:

- :attr:`Session.fresh_view`: the gate over the code as it is now, with the runbook-fresh item,
  for ``check``, ``pytest --jobledger``, ``render``, ``baseline``, ``draft`` and the GitHub
  presenter;
- :attr:`Session.committed_view`: the committed ledger joined with the same overlay, roster and
  day, for ``list``, ``show`` and ``verdict``;
- :meth:`Session.changes`: what changed since the base, for ``diff``.

A reading's failure is a located finding (a status item) or a located error the command prints
(exit 2), never an exception out of a presenter. ``gate/`` below this only joins what it is given.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from .core.errors import JobledgerError, OverlayError
from .core.trace import trace
from .findings import ChangeReport, GateResult
from .gate import CommittedLedger, Readings, judge
from .gate.committed import Snapshot, committed_view
from .gate.readings import BaseReading
from .gate.today import resolve_today
from .ledger.model import Ledger
from .ledger.store import parse_ledger
from .overlay.model import Overlay
from .overlay.reader import parse_overlay, refused_overlay
from .overlay.roster import Roster, load_roster
from .project import Config
from .project.files import ProjectFile, as_text, limit_of, read_file

if TYPE_CHECKING:  # what only some views need is imported by them: `list`, `show` and
    # `verdict` start without the baseline, the drafts, git or the runbook's presenter
    from . import git
    from .baseline import BaseBaseline, Baseline
    from .draft.store import Draft, DraftsError
    from .gate.review import Base
    from .reporters.runbook import CommittedRunbook


@dataclass(frozen=True)
class Session:
    """The project as read once, and the views every command and presenter asks for."""

    config: Config
    readings: Readings
    #: The baseline file (``None``: no file, or a session that judges without it).
    known: Baseline | None = None
    use_baseline: bool = True

    @classmethod
    def open(
        cls,
        config: Config,
        *,
        base: str | None = None,
        today: datetime.date | None = None,
        ledger: Ledger | None = None,
        baseline: bool = True,
        memos: bool = False,
    ) -> Session:
        """Read the project once.

        ``base`` is the git ref review-after-change and ``diff`` compare with; ``today`` dates
        reviews (default: ``JOBLEDGER_TODAY``, else the machine's date); ``ledger`` replaces the
        fresh extraction (the xdist controller's, or a test's). Without ``baseline`` the gate is
        judged as if there were no baseline file (what ``jobledger baseline`` records). With
        ``memos`` (the read-only commands) the fresh ledger and the parsed overlay come from
        :mod:`.memo` when nothing they were made of changed.

        Only a configuration mistake raises (a corrupt baseline, a malformed ``JOBLEDGER_TODAY``:
        a located :class:`~pytest_jobledger.core.errors.JobledgerError`, exit 2), before any work.
        """
        trace("session-open")
        day = today if today is not None else resolve_today(None)
        # Read first: a corrupt baseline is a located error (exit 2) before any work is done.
        known = None
        if baseline:
            from .baseline import read_baseline

            known = read_baseline(config)
        if ledger is None:
            ledger = fresh_ledger(config, memos=memos)
        overlay, error, digest = read_overlay(config, memos=memos)
        roster, roster_error = read_roster(config, memos=memos)
        readings = Readings(
            fresh=ledger,
            committed=read_committed(config),
            overlay=overlay,
            overlay_error=error,
            overlay_sha256=digest,
            today=day,
            roster=roster,
            roster_error=roster_error,
            base=read_base(config, base) if base is not None else None,
        )
        if config.review.same_signer and overlay is not None and overlay.exists:
            signers, signers_error = read_signers(config)
            readings = dataclasses.replace(readings, signers=signers, signers_error=signers_error)
        return cls(config, readings, known, baseline)

    @property
    def today(self) -> datetime.date:
        return self.readings.today

    @cached_property
    def unbaselined(self) -> GateResult:
        """The fresh gate as if there were no baseline (what ``jobledger baseline`` records)."""
        return judge(self.readings, self.config)

    @cached_property
    def gate(self) -> GateResult:
        """The fresh gate with the baseline applied (known failures are notices), no runbook.

        With a base, only the entries the base's baseline holds apply; any other fails as its
        own ``baseline-grown`` item (a pull request cannot vouch for its own failures).
        """
        if not self.use_baseline:
            return self.unbaselined
        from .baseline import apply_baseline, held_by_base

        display = self.config.display(self.config.baseline_path)
        base = self.readings.base
        known, grown = held_by_base(
            display,
            base.ref if base is not None else None,
            self.known,
            base.baseline if base is not None else None,
        )
        result = apply_baseline(self.unbaselined, known, display)
        return dataclasses.replace(result, checks=result.checks + grown) if grown else result

    @cached_property
    def fresh_view(self) -> GateResult:
        """What ``check``, pytest and the Action report: the gate, and the runbook's freshness
        when ``runbook`` is configured (so none of them can disagree about the page)."""
        trace("gate-evaluated")
        if self.config.runbook.path is None:
            return self.gate
        from .reporters.runbook import with_runbook_status

        return with_runbook_status(self.gate, self.config, committed_runbook(self.runbook))

    @cached_property
    def runbook(self) -> ProjectFile:
        """The committed runbook page, read once (``render --check`` and the fresh view)."""
        return read_file("runbook", self.config)

    @cached_property
    def committed_view(self) -> Snapshot:
        """The committed ledger joined with the same overlay, roster and day."""
        return committed_view(self.readings, self.config)

    def changes(self) -> ChangeReport:
        """What changed since the base, for ``jobledger diff``, or a usage error saying why
        there is no base (exit 2)."""
        reading = self.readings.base
        if reading is None:
            raise JobledgerError("no base to compare with: no --base was given")
        if reading.base is None:
            raise JobledgerError(f"no base to compare with: {reading.reason}")
        if self.readings.overlay is None:
            error = self.readings.overlay_error
            assert error is not None
            raise error
        from .gate.changes import build_report

        return build_report(reading.base, self.readings.fresh, self.readings.overlay)

    @cached_property
    def drafts(self) -> dict[str, Draft] | DraftsError:
        """The drafts file (``render --preview`` shows them), or why it cannot be read."""
        return read_drafts_file(self.config)


def evaluate(
    config: Config,
    *,
    ledger: Ledger | None = None,
    base: str | None = None,
    today: datetime.date | None = None,
    baseline: bool = True,
) -> GateResult:
    """The gate of a freshly opened session (without the runbook item): for tests and tools."""
    return Session.open(config, ledger=ledger, base=base, today=today, baseline=baseline).gate


def fresh_ledger(config: Config, *, memos: bool = False) -> Ledger:
    """An extraction of the code as it is now (with ``memos``: the one remembered for files that
    look exactly as they did then)."""
    if not memos or not config.cache.enabled:
        from .extract import extract_ledger  # libcst: only when the code is read

        return extract_ledger(config)
    from .memo import fresh

    seen = fresh.look(config)
    remembered = fresh.recall(config, seen)
    if remembered is not None:
        return remembered
    from .extract import extract_ledger

    ledger = extract_ledger(config)
    fresh.remember(config, seen, ledger)
    return ledger


def read_overlay(
    config: Config, *, memos: bool = False
) -> tuple[Overlay | None, OverlayError | None, str | None]:
    """The overlay, with the configured ``max_overlay_bytes``, or why it cannot be used; and the
    sha256 of the bytes read (``None``: no file), even when they do not parse. With ``memos``,
    bytes that parsed before are not parsed again (:mod:`.memo.parsed`)."""
    read = read_file("overlay", config)
    if not read.exists:
        return Overlay(path=read.display, exists=False), None, None
    digest = hashlib.sha256(read.raw).hexdigest() if read.raw is not None else None
    if read.text is None:
        return None, refused_overlay(read), digest
    raw = read.raw if memos else None
    remembered = None
    if raw is not None:
        from .memo import parsed

        remembered = parsed.recall(config, "overlay", raw, read.display, Overlay)
    if remembered is not None:
        return dataclasses.replace(remembered, sha256=digest), None, digest
    try:
        overlay = parse_overlay(read.text, read.display)
    except OverlayError as exc:
        return None, exc, digest
    if raw is not None:
        parsed.remember(config, "overlay", raw, read.display, overlay)
    return dataclasses.replace(overlay, sha256=digest), None, digest


def read_roster(
    config: Config, *, memos: bool = False
) -> tuple[Roster | None, OverlayError | None]:
    """The owners roster when one is configured, or why it cannot be used (with ``memos``: bytes
    that parsed before are not parsed again)."""
    if config.owners_path is None:
        return None, None
    read = read_file("owners", config)
    raw = read.raw if memos else None
    if raw is not None:
        from .memo import parsed

        remembered = parsed.recall(config, "owners", raw, read.display, Roster)
        if remembered is not None:
            return remembered, None
    try:
        roster = load_roster(read)
    except OverlayError as exc:
        return None, exc
    if raw is not None:
        parsed.remember(config, "owners", raw, read.display, roster)
    return roster, None


def read_committed(config: Config) -> CommittedLedger:
    """The committed ledger: its bytes, its text with line endings normalised, and it parsed."""
    read = read_file("ledger", config)
    if read.text is None:
        return CommittedLedger(raw=read.raw, unreadable=read.refused)
    ledger, problem = parse_ledger(read.text)
    return CommittedLedger(raw=read.raw, text=read.text, ledger=ledger, problem=problem)


def committed_runbook(read: ProjectFile) -> CommittedRunbook:
    """The runbook as its freshness item judges it: its text, or why it cannot be read."""
    from .reporters.runbook import CommittedRunbook

    unreadable = f"cannot be read ({read.reason})" if read.reason is not None else None
    return CommittedRunbook(text=read.text, unreadable=unreadable)


def read_signers(config: Config) -> tuple[dict[int, tuple[str, int]] | None, str | None]:
    """Who last changed each overlay line (``same_signer``), through the one git runner, or why
    git cannot say."""
    from . import git

    try:
        return git.blame(config.overlay_path, config.root), None
    except git.GitUnavailable as error:
        return None, error.reason


def read_base(config: Config, ref: str) -> BaseReading:
    """The base's committed ledger, overlay and baseline, read with git (one repository, located
    from the project root) through the tree's own parsers (the same limits, the same refusals),
    or the reason there is no base."""
    trace("base-read")
    from . import git
    from .baseline import unreadable_base

    display = config.display(config.baseline_path)
    try:
        repository = git.locate(config.root)
        commit = repository.resolve_commit(ref)
    except git.GitUnavailable as exc:
        return BaseReading(ref, None, exc.reason, unreadable_base(ref, exc.reason))
    baseline = _base_baseline(config, repository, commit, ref, display)
    try:
        return BaseReading(ref, _base(config, repository, commit, ref), baseline=baseline)
    except git.GitUnavailable as exc:
        return BaseReading(ref, None, exc.reason, baseline)


def _base_baseline(
    config: Config, repository: git.Repository, commit: str, ref: str, display: str
) -> BaseBaseline:
    """What the base's baseline file vouches for (none when it has none or is unreadable)."""
    from . import git
    from .baseline import base_entries, unreadable_base

    try:
        raw = repository.show(commit, config.baseline_path, limit=limit_of("baseline", config))
    except git.NotAtCommit:
        return base_entries(None, ref, display)
    except git.GitUnavailable as exc:
        return unreadable_base(ref, exc.reason)
    return base_entries(raw, ref, display)


def _base(config: Config, repository: git.Repository, commit: str, ref: str) -> Base:
    from . import git
    from .gate.review import Base

    try:
        raw = repository.show(commit, config.ledger_path, limit=limit_of("ledger", config))
    except git.NotAtCommit as exc:
        raise git.GitUnavailable(
            f"{config.ledger_display} was not committed at {ref} ({commit[:12]}), so there is "
            "nothing to compare the jobs with"
        ) from exc
    ledger: Ledger | None
    problem: str | None
    read = as_text(config.ledger_display, raw)
    if read.text is None:
        ledger, problem = None, read.refused
    else:
        ledger, problem = parse_ledger(read.text)
    if ledger is None:
        raise git.GitUnavailable(
            f"{config.ledger_display} at {ref} is not a ledger jobledger can read ({problem})"
        )
    display = config.overlay_display
    try:
        overlay_raw = repository.show(
            commit, config.overlay_path, limit=limit_of("overlay", config)
        )
    except git.NotAtCommit:
        overlay = Overlay(path=display, exists=False)  # every entry is new: none is stale
    else:
        read = as_text(display, overlay_raw, by_hand=True)
        try:
            if read.text is None:
                raise refused_overlay(read)
            overlay = parse_overlay(read.text, display)
        except OverlayError as exc:
            raise git.GitUnavailable(
                f"{display} at {ref} cannot be read ({exc.message}), so a touched entry cannot "
                "be told from an untouched one"
            ) from exc
        overlay = dataclasses.replace(overlay, sha256=hashlib.sha256(overlay_raw).hexdigest())
    return Base(ref=ref, commit=commit, ledger=ledger, overlay=overlay)


def read_drafts_file(config: Config) -> dict[str, Draft] | DraftsError:
    """Every draft, or why the drafts file cannot be read (a located error, never a crash: a
    file nested past the parser's depth is refused like any other malformed file)."""
    from .draft.store import DraftsError, read_drafts

    try:
        return read_drafts(read_file("drafts", config))
    except DraftsError as exc:
        return exc
    except RecursionError:
        return DraftsError(
            "the drafts file nests too deeply to be one jobledger wrote; delete it and run "
            "`jobledger draft` again",
            path=config.drafts.path,
        )
