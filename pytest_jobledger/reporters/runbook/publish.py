"""When the runbook may be published, what it says, and whether the committed page says it too.

- :func:`~.build.blockers` is the one refusal rule: ``jobledger render`` writes nothing, and the
  runbook-fresh item is not judged, while any check fails or could not be judged (status items
  included: a stale ledger or an unreadable overlay is unsigned work too).
- :func:`render_runbook` is the page's text in either format.
- :func:`with_runbook_status` adds ``jobledger-status::runbook-fresh`` to a gate result when
  ``runbook`` is configured, against the page the session read (``Session.runbook``).
  The session's fresh view is what ``pytest --jobledger`` and ``jobledger check`` both report,
  so they cannot disagree about the page.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from ...findings import STATUS_JOB, Check, GateResult, Kind, Status
from ...ledger.diff import stale_line
from ...project import Config
from . import page
from .build import blockers, build_runbook
from .model import DraftNote

FORMATS: tuple[str, ...] = ("markdown", "json")


def render_runbook(
    result: GateResult,
    config: Config,
    *,
    fmt: str = "markdown",
    preview: bool = False,
    drafts: Mapping[str, DraftNote] | None = None,
) -> str:
    """The runbook's text (Markdown or the JSON model). Without ``preview`` the caller has made
    sure nothing blocks (:func:`blockers`); drafts are shown in a preview only."""
    book = build_runbook(result, config, preview=preview, drafts=drafts)
    return page.render(book) if fmt == "markdown" else book.dumps()


@dataclass(frozen=True)
class CommittedRunbook:
    """The committed runbook as the session read it: its text (``None``: no file), or why it
    cannot be read."""

    text: str | None = None
    unreadable: str | None = None


def runbook_status(result: GateResult, config: Config, committed: CommittedRunbook) -> Check | None:
    """The runbook-fresh item for ``result`` against the ``committed`` page, or ``None`` when
    no runbook is configured."""
    if config.runbook.path is None:
        return None
    display = config.display(config.runbook_path)
    blocking = blockers(result)
    if blocking:
        count = len(blocking)
        known = sum(1 for c in blocking if c.finding is not None and c.finding.baselined)
        return Check.status(
            Status.RUNBOOK,
            display,
            1,
            skipped=(
                f"the runbook is not rendered while {count} "
                f"{'checks fail' if count != 1 else 'check fails'}"
                f"{f' ({known} known in the baseline)' if known else ''}; each is reported on "
                "its own"
            ),
        )
    expected = render_runbook(result, config)

    def stale(line: int, detail: str) -> Check:
        return Check.status_failed(
            Kind.RUNBOOK_STALE,
            Status.RUNBOOK,
            display,
            line,
            f"The committed runbook {display} {detail}. It is rendered from the ledger and the "
            "signed overlay: run `jobledger render` and commit the result; a value that is wrong "
            "is fixed in the code or the overlay, never in the page.",
        )

    if committed.unreadable is not None:
        return stale(1, committed.unreadable)
    if committed.text is None:
        return stale(1, "does not exist yet")
    line = stale_line(committed.text, expected)
    if line is None:
        return Check.status(Status.RUNBOOK, display, 1)
    return stale(line, f"differs from a fresh render (first difference at line {line})")


def with_runbook_status(
    result: GateResult, config: Config, committed: CommittedRunbook
) -> GateResult:
    """``result`` with the runbook-fresh item after the other status items (when configured)."""
    status = runbook_status(result, config, committed)
    if status is None:
        return result
    checks = result.checks
    first = 0  # the status items lead the checks
    while first < len(checks) and checks[first].job == STATUS_JOB:
        first += 1
    return dataclasses.replace(result, checks=(*checks[:first], status, *checks[first:]))
