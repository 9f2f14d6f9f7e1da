"""The overlay's cell vocabulary and its published schema say the same thing."""

from __future__ import annotations

from pytest_jobledger.overlay.cells import CELLS, CellKind, spec_for
from pytest_jobledger.overlay.schema import schema
from pytest_jobledger.project import DEFAULT_REQUIRED_CELLS


def test_every_cell_is_in_the_schema_and_nothing_else() -> None:
    properties = schema()["$defs"]["entry"]["properties"]
    assert sorted(properties) == sorted(CELLS)
    for name, spec in CELLS.items():
        if spec.kind is CellKind.YES_NO:
            assert properties[name]["enum"] == ["yes", "no"], name
        elif spec.kind is CellKind.DATE:
            assert properties[name]["pattern"] == "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", name
        elif spec.kind is CellKind.WHOLE_NUMBER:
            assert properties[name]["type"] == "integer", name
            assert properties[name]["minimum"] == 0, name
        elif spec.allowed:  # a text cell the vocabulary itself limits (risk_tier)
            assert properties[name]["enum"] == list(spec.allowed), name
        else:
            assert properties[name]["$ref"] == "#/$defs/signed", name


def test_the_default_required_cells_are_the_marked_ones() -> None:
    assert DEFAULT_REQUIRED_CELLS == (
        "idempotent",
        "poison_policy",
        "paging_owner",
        "runtime_class",
        "purpose_accepted",
    )


def test_a_projects_own_cell_is_text() -> None:
    assert spec_for("data_retention").kind is CellKind.TEXT
