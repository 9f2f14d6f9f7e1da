"""The overlay's vocabulary: every cell a person may sign, what kind of answer it takes, and why.

Required cells come from ``required_cells`` in [tool.jobledger] (by default those marked
``required`` here); any other cell listed here is optional: the gate judges it when it is written
and leaves it alone when it is not. A configured required cell that is not listed here, and a cell
a project declares in ``[tool.jobledger.cells.NAME]``, is a text cell. A new cell is one
:class:`CellSpec` here; the overlay schema is generated from the :class:`Vocabulary`
(:func:`pytest_jobledger.overlay.schema.build_schema`).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, replace


class CellKind(str, enum.Enum):
    """What a signed answer looks like."""

    YES_NO = "yes-no"
    """Exactly the text "yes" or "no", quoted so that YAML 1.1 and 1.2 readers agree."""
    TEXT = "text"
    """A sentence or a name, read as the same text by every YAML reader."""
    DATE = "date"
    """A calendar day, ``YYYY-MM-DD``, not in the future."""
    WHOLE_NUMBER = "whole-number"
    """0, 1, 2, ...: an unquoted YAML integer that YAML 1.1 and 1.2 readers read as the same one."""


@dataclass(frozen=True)
class CellSpec:
    name: str
    kind: CellKind
    description: str
    required: bool = False
    """Required by default (part of the default ``required_cells``)."""
    allowed: tuple[str, ...] = ()
    """The only answers a text cell takes (``[tool.jobledger.cells.NAME] allowed``); empty: any."""


def _table(*specs: CellSpec) -> Mapping[str, CellSpec]:
    return {spec.name: spec for spec in specs}


CELLS: Mapping[str, CellSpec] = _table(
    CellSpec(
        "idempotent",
        CellKind.YES_NO,
        "Running the job twice with the same arguments has the effect of running it once.",
        required=True,
    ),
    CellSpec(
        "poison_policy",
        CellKind.TEXT,
        "What happens to a payload that keeps failing, and who hears about it.",
        required=True,
    ),
    CellSpec(
        "paging_owner",
        CellKind.TEXT,
        "Who is paged when the job misbehaves.",
        required=True,
    ),
    CellSpec(
        "runtime_class",
        CellKind.TEXT,
        "How long the job is expected to run, e.g. synchronous-short.",
        required=True,
    ),
    CellSpec(
        "purpose_accepted",
        CellKind.TEXT,
        "What the job does, in the words its owner accepted.",
        required=True,
    ),
    CellSpec(
        "reviewed_on",
        CellKind.DATE,
        "The day the owner last checked this entry against the code.",
    ),
    # Optional cells read by `jobledger verdict` before an operator retries, requeues or replays.
    CellSpec(
        "business_idempotent",
        CellKind.YES_NO,
        "Running the job twice creates no second business effect (no second charge, no second "
        "email), whatever the queue does.",
    ),
    CellSpec(
        "dedupe_guard",
        CellKind.TEXT,
        "How a duplicate run is prevented or made harmless, e.g. a unique key the job checks.",
    ),
    CellSpec(
        "dead_letter_queue",
        CellKind.TEXT,
        "The queue a payload that keeps failing is parked in: one the code declares (a job's "
        "queue, Dramatiq's <queue>.XQ) or [tool.jobledger] broker_queues lists.",
    ),
    CellSpec(
        "reconciliation",
        CellKind.TEXT,
        "How the business outcome is confirmed independently of the job's own success report.",
    ),
    CellSpec(
        "bulk_retry_limit",
        CellKind.WHOLE_NUMBER,
        "The most jobs one bulk retry may touch (0: never bulk-retry this job).",
    ),
    CellSpec(
        "rollback",
        CellKind.TEXT,
        "How the business effect of a rerun is undone if it goes wrong (a refund, a correcting "
        "entry), agreed before the action: required by the verdict from risk tier R4.",
    ),
    CellSpec(
        "risk_tier",
        CellKind.TEXT,
        "The job's own risk tier (R2 to R5): it raises the tier of every action on the job above "
        "the action's own, and never lowers it.",
        allowed=("R2", "R3", "R4", "R5"),
    ),
)

#: The cell that dates a review (``max_review_age_days`` makes it required).
REVIEWED_ON = "reviewed_on"

#: The cells every job must sign unless [tool.jobledger] ``required_cells`` says otherwise.
DEFAULT_REQUIRED_CELLS: tuple[str, ...] = tuple(
    spec.name for spec in CELLS.values() if spec.required
)


#: Keys of the draft lane (``jobledger draft`` writes them to its own file). A model's draft is
#: never a signature, so one of these in the overlay is lane mixing, like a ledger field.
DRAFT_KEYS: tuple[str, ...] = ("purpose_draft",)


def spec_for(name: str) -> CellSpec:
    """The spec of a cell; a project's own configured cell is a text cell."""
    return CELLS.get(name) or CellSpec(name, CellKind.TEXT, "A cell this project requires.")


@dataclass(frozen=True)
class CellSettings:
    """What ``[tool.jobledger.cells.NAME]`` says of one cell."""

    allowed: tuple[str, ...] = ()
    description: str | None = None


@dataclass(frozen=True)
class Vocabulary:
    """Every cell an entry of this project may hold, and which of them are required."""

    cells: Mapping[str, CellSpec]
    required: tuple[str, ...]

    def spec(self, name: str) -> CellSpec | None:
        return self.cells.get(name)


def vocabulary(
    required: tuple[str, ...], settings: Mapping[str, CellSettings] | None = None
) -> Vocabulary:
    """The vocabulary, the project's required cells and its own cells, with allowed values."""
    settings = settings or {}
    cells: dict[str, CellSpec] = {}
    for name in (*CELLS, *required, *sorted(settings)):
        if name in cells:
            continue
        base = CELLS.get(name)
        own = settings.get(name, CellSettings())
        if base is None:
            default = "A cell this project requires." if name in required else "A project cell."
            base = CellSpec(name, CellKind.TEXT, own.description or default)
        elif own.description:
            base = replace(base, description=own.description)
        cells[name] = replace(base, required=name in required, allowed=own.allowed or base.allowed)
    return Vocabulary(cells=cells, required=tuple(dict.fromkeys(required)))
