"""The runbook: the page an operator reads at 3 a.m., rendered from the gate's result.

- ``model``: the joined facts of every job, each value with its lane (the JSON format);
- ``build``: the model made from one gate run (and the jobs' stable anchors);
- ``view``: the words of every table cell and line, once, for both docs builders and the page;
- ``page``: the Markdown page drawn from the model (and the view);
- ``defaults``: the frameworks' documented defaults, with the page each comes from;
- ``publish``: the refusal rule, the text in either format, and the runbook-fresh status item.
"""

from __future__ import annotations

from .build import anchor_for, blockers, build_runbook
from .model import DraftNote, Runbook
from .publish import (
    FORMATS,
    CommittedRunbook,
    render_runbook,
    runbook_status,
    with_runbook_status,
)

__all__ = [
    "FORMATS",
    "CommittedRunbook",
    "DraftNote",
    "Runbook",
    "anchor_for",
    "blockers",
    "build_runbook",
    "render_runbook",
    "runbook_status",
    "with_runbook_status",
]
