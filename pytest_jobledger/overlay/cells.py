"""The overlay's vocabulary: every cell a person may sign, what kind of answer it takes, and why.

Required cells come from ``required_cells`` in [tool.jobledger] (by default those marked
``required`` here); any other cell listed here is optional: the gate judges it when it is written
and leaves it alone when it is not. A configured required cell that is not listed here is a text
cell. A new cell is one :class:`CellSpec` here (and its property in the published schema).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass


class CellKind(str, enum.Enum):
    """What a signed answer looks like."""

    YES_NO = "yes-no"
    """Exactly the text "yes" or "no", quoted so that YAML 1.1 and 1.2 readers agree."""
    TEXT = "text"
    """A sentence or a name, read as the same text by every YAML reader."""


@dataclass(frozen=True)
class CellSpec:
    name: str
    kind: CellKind
    description: str
    required: bool = False
    """Required by default (part of the default ``required_cells``)."""


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
)

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
