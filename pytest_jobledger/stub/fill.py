"""Cells added to ``required_cells`` after an entry was written: which entries lack which cells,
and the whole lines that add them at the end of the entry (no byte a person wrote changes).

An entry written as a block mapping (or as ``job:`` with nothing yet) takes new cell lines after
its last line, at its cells' column. One written on one line (``{...}``), as a scalar or ending
in a ``|+`` block scalar (whose kept blank lines a new line would cut off) cannot: the report says
which cells to add by hand, and nothing else changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .emit import scalar
from .layout import EntrySpan, Layout
from .result import Filled, Unfillable

FLOW = "its value is not indented `cell: value` lines (it is a `{...}` mapping, a scalar or a list)"
KEEP_BLOCK = "it ends with a `|+` block scalar, whose kept blank lines a new line would cut off"


def missing_cells(entry: EntrySpan, required: Sequence[str]) -> tuple[str, ...]:
    """The required cells the entry has no key for, in the configured order."""
    return tuple(cell for cell in dict.fromkeys(required) if cell not in entry.keys)


def plan_fills(
    layout: Layout, final: Mapping[str, str], required: Sequence[str]
) -> tuple[dict[str, tuple[str, ...]], tuple[Filled, ...], tuple[Unfillable, ...]]:
    """The cells to add to each entry in ``final`` (its id now -> the job id it will have):
    by the entry's id now, and as the report names them (by the job's id)."""
    fills: dict[str, tuple[str, ...]] = {}
    filled: list[Filled] = []
    gaps: list[Unfillable] = []
    for entry in layout.entries:
        if entry.id not in final:
            continue
        cells = missing_cells(entry, required)
        if not cells:
            continue
        if entry.value_kind == "other":
            gaps.append(Unfillable(final[entry.id], cells, FLOW))
        elif entry.open_ended:
            gaps.append(Unfillable(final[entry.id], cells, KEEP_BLOCK))
        else:
            fills[entry.id] = cells
            filled.append(Filled(final[entry.id], cells))
    key = lambda item: item.id  # noqa: E731
    return fills, tuple(sorted(filled, key=key)), tuple(sorted(gaps, key=key))


def fill_text(
    entry: EntrySpan, cells: Sequence[str], layout: Layout, placeholder: str, newline: str
) -> str:
    """The lines that add ``cells`` (holding the placeholder) at the end of ``entry``."""
    if entry.value_kind == "block" and entry.cell_column is not None:
        column = entry.cell_column
    else:
        column = entry.column + layout.cell_indent
    value = f" {scalar(placeholder, layout.quote)}" if placeholder else ""
    pad = " " * column
    return "".join(f"{pad}{scalar(cell, layout.quote)}:{value}{newline}" for cell in cells)
