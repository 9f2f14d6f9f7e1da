"""What the stub refuses, each with a located message: ids no overlay can hold, text over the
size the gate reads, and text the gate refuses, before (the stub edits only an overlay the gate
reads) and after (it never writes one the gate would refuse)."""

from __future__ import annotations

from collections.abc import Iterable

from ruamel.yaml.events import Event

from ..core.errors import OverlayError
from ..core.text import has_surrogate, one_line
from ..ledger.model import Job
from ..overlay.reader import parse_overlay
from ..project.records import OVERLAY_BYTES_CEILING
from .layout import remember_events


def refuse_unwritable_ids(jobs: Iterable[Job], path: str) -> None:
    """A job id with a lone surrogate (``\\udfff``, from an escape in the source) cannot be
    written as UTF-8, and no YAML 1.1 reader accepts it escaped: refuse at the registration."""
    for job in jobs:
        if has_surrogate(job.id):
            raise OverlayError(
                f"the job id {one_line(job.id)} (registered at {job.location}) holds a lone "
                "surrogate, not a character: no overlay can name it. Fix the registration (its "
                "name or function) in the code, run `jobledger extract`, then run the stub "
                "again; nothing was written",
                path=path,
            )


def refuse_oversized(after: str, path: str, max_bytes: int) -> None:
    """Refuse text over the size the gate reads (``max_overlay_bytes``)."""
    size = len(after.encode("utf-8"))
    if size > max_bytes:
        raise OverlayError(
            f"the stubbed overlay would be {size:,} bytes, over the {max_bytes:,}-byte limit the "
            "gate reads, so the gate would refuse it. Raise `max_overlay_bytes` in "
            f"[tool.jobledger] (at most {OVERLAY_BYTES_CEILING:,}), or sign and trim entries "
            "first; nothing was written",
            path=path,
            line=1,
        )


def refuse_what_the_gate_refuses(text: str, path: str) -> None:
    """Read ``text`` with the gate's own strict reader first: an overlay the gate refuses (an
    anchor, a merge key, a custom tag, an impossible date, a complex key, deep nesting...) is
    refused by the stub with the gate's located message, and the file is left as it is."""
    events: list[Event] = []
    try:
        parse_overlay(text, path, events=events)
    except OverlayError as error:
        raise OverlayError(
            f"{error.message}; the stub edits only an overlay the gate reads: fix this by hand, "
            "then run the stub again; nothing was written",
            path=path,
            line=error.line,
        ) from None
    remember_events(text, events)  # the layout reads the same pass


def gate_refusal(after: str, path: str) -> OverlayError | None:
    """What :func:`gate_reads_it` would raise, returned (``None``: the gate reads ``after``), so
    the proof can run first on the same parse (it reports a bug of the stub before this)."""
    try:
        gate_reads_it(after, path)
    except OverlayError as error:
        return error
    return None


def gate_reads_it(after: str, path: str) -> None:
    """Refuse text the gate would not read (the old text was read by the gate first, see
    :func:`refuse_what_the_gate_refuses`): the stub never writes an overlay the gate refuses."""
    events: list[Event] = []
    try:
        parse_overlay(after, path, events=events)
    except OverlayError as error:
        raise OverlayError(
            f"the stubbed overlay would be refused by the gate ({error.message}); nothing was "
            "written",
            path=path,
            line=error.line,
        ) from None
    remember_events(after, events)  # the proof reads the same pass
