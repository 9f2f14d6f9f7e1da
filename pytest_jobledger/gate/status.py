"""The gate's session-level status items: the overlay is usable, the ledger is fresh, the scan
found jobs, the owners roster is usable (when configured); :mod:`.review` adds the base's.

They come first, so a run cannot pass when something outside the per-cell items is wrong: a scan
that found nothing (a ``paths`` typo, an ``exclude`` that matches everything) is not a green gate.
"""

from __future__ import annotations

from ..core.errors import OverlayError
from ..core.text import checked_out
from ..findings import STATUS_JOB, Check, Finding, Kind, Status
from ..ledger.diff import ledger_diff, stale_line
from ..ledger.model import Ledger
from ..project import Config

__all__ = ["STATUS_JOB", "ledger_status", "overlay_status"]


def overlay_status(error: OverlayError | None, display: str) -> Check:
    """The overlay parsed and matches the schema, or one located finding saying why not."""
    if error is None:
        return Check.status(Status.OVERLAY, display, 1)
    line = error.line or 1
    return Check.status_failed(
        Kind.OVERLAY_INVALID,
        Status.OVERLAY,
        display,
        line,
        (
            f"The overlay {display} cannot be used (line {line}): {error.message}. Until it reads "
            "cleanly no cell can be judged, so the per-cell items are skipped."
        ),
    )


def ledger_status(
    committed: str | None, fresh: Ledger, config: Config, *, unreadable: str | None = None
) -> Check:
    """The committed ledger is byte for byte what the code gives now; a missing one fails.

    ``committed`` is the committed file's text (``None``: there is no file); ``unreadable`` says
    why the committed file could not be read at all.
    """
    display = config.ledger_display
    if unreadable is not None:
        return Check.status_failed(
            Kind.LEDGER_STALE,
            Status.LEDGER,
            display,
            1,
            (
                f"The committed ledger {display} cannot be read: {unreadable}. Run "
                "`jobledger extract` and commit the file it writes."
            ),
        )
    if committed is None and empty_scan(fresh, config) is not None:
        # `jobledger extract` refuses to write an empty scan: jobs-found fails and says why.
        return Check.status(
            Status.LEDGER,
            display,
            1,
            skipped=f"there is no ledger to commit at {display} until the scan finds a job; see "
            f"{STATUS_JOB}::{Status.JOBS.value}",
        )
    if committed is None:
        # Not a pass: with no committed file there is nothing for reviewers to diff, and a gate
        # that compares nothing would be green on every pull request.
        return Check.status_failed(
            Kind.LEDGER_STALE,
            Status.LEDGER,
            *_where_the_ledger_is_named(config),
            (
                f"There is no committed ledger at {display}; run `jobledger extract` and "
                "commit it. The gate compares the committed ledger with a fresh extraction, "
                "so that every change to a job shows in the pull request's diff."
            ),
        )
    line = stale_line(committed, fresh.dumps())
    if line is None:
        return Check.status(Status.LEDGER, display, 1)
    how = ledger_diff(checked_out(committed), fresh)
    return Check.status_failed(
        Kind.LEDGER_STALE,
        Status.LEDGER,
        display,
        line,
        (
            f"The committed ledger {display} differs from a fresh extraction of the code (first "
            f"difference at line {line}): {how}. The ledger is compiler "
            "output: run `jobledger extract` and commit the result; a value that is wrong is "
            "fixed in the code, never in the ledger."
        ),
    )


def _where_the_ledger_is_named(config: Config) -> tuple[str, int]:
    """Where a missing committed ledger is located: the configuration line that names it (else
    the ``[tool.jobledger]`` header, else the file's first line), a file the repository holds;
    never the ledger's own path, which an annotation could not point at. Without a
    configuration file in the project, the ledger's path is all there is."""
    if config.source is not None:
        shown = config.display(config.source)
        if not shown.startswith("../"):
            return shown, config.key_lines.get("ledger") or config.key_lines.get("") or 1
    return config.ledger_display, 1


def owners_status(error: OverlayError | None, display: str) -> Check:
    """The owners roster reads as a list or mapping of names, or one located finding."""
    if error is None:
        return Check.status(Status.OWNERS, display, 1)
    line = error.line or 1
    return Check.status_failed(
        Kind.OWNERS_INVALID,
        Status.OWNERS,
        display,
        line,
        (
            f"The owners roster {display} cannot be used (line {line}): {error.message}. Until "
            "it reads cleanly no paging owner is checked against it."
        ),
    )


def empty_scan(fresh: Ledger, config: Config) -> Finding | None:
    """Why a scan that found no job registration is not a pass (``None``: it found some, or the
    project allows none). ``jobledger extract`` refuses with the same words."""
    if fresh.jobs or fresh.unsupported or config.extraction.allow_empty:
        return None
    source = _config_display(config)
    scanned = (
        f"paths {list(config.extraction.paths)!r} (exclude: {list(config.extraction.exclude)!r})"
    )
    if config.configured:
        lines = config.key_lines
        blamed = "exclude" if config.extraction.exclude and "paths" not in lines else "paths"
        line = lines.get(blamed) or lines.get("", 1)
        message = (
            f"No job registration found under {scanned} in {config.root}: the gate would check "
            f"nothing. Check `paths` and `exclude` in [tool.jobledger] ({source}:{line}); a "
            "folder name typo or an exclude pattern that matches everything gives an empty "
            "scan. If the project has no background jobs on purpose, set `allow_empty = true` "
            "there."
        )
    else:
        line = 1
        where = f"{source} has no [tool.jobledger] table"
        if config.source is None:
            where = "there is no pyproject.toml"
        message = (
            f"No job registration found under {config.root}, and {where}, so the whole root was "
            "scanned with the defaults: the gate would check nothing. Add a table to "
            f"{source} at the project root naming the folders that hold the jobs, e.g. "
            '`[tool.jobledger]` then `paths = ["src"]` on the next line (or `allow_empty = '
            "true` if the project has no background jobs on purpose)."
        )
    return Finding(
        kind=Kind.NO_JOBS,
        job=STATUS_JOB,
        cell=Status.JOBS.value,
        path=source,
        line=line,
        message=message,
    )


def jobs_status(fresh: Ledger, config: Config) -> Check:
    """The scan found at least one job registration, or the project allows it to find none."""
    finding = empty_scan(fresh, config)
    if finding is None:
        return Check.status(Status.JOBS, _config_display(config), 1)
    return Check.failed(finding)


def _config_display(config: Config) -> str:
    """The configuration file as findings name it (``pyproject.toml`` when there is none yet)."""
    return config.display(config.source) if config.source is not None else "pyproject.toml"
