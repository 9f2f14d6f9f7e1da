"""The overlay's published contract in the repository's ``overlays/`` folder stays true."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import yaml

from pytest_jobledger.overlay.cells import CELLS
from pytest_jobledger.overlay.reader import parse_overlay
from pytest_jobledger.overlay.schema import schema, schema_text
from pytest_jobledger.project import DEFAULT_REQUIRED_CELLS

OVERLAYS = Path(__file__).resolve().parents[2] / "overlays"


def test_the_published_schema_is_the_packaged_one_byte_for_byte() -> None:
    assert (OVERLAYS / "job_policy.schema.json").read_text("utf-8") == schema_text()


def test_the_annotated_example_is_a_valid_fully_signed_overlay() -> None:
    text = (OVERLAYS / "job_policy.example.yaml").read_text("utf-8")
    overlay = parse_overlay(text, "overlays/job_policy.example.yaml")
    assert overlay.entries
    for entry in overlay.entries:
        keys = [cell.key for cell in entry.cells]
        assert keys[: len(DEFAULT_REQUIRED_CELLS)] == list(DEFAULT_REQUIRED_CELLS)
        assert set(keys) <= set(CELLS), entry.job
        assert all(cell.same_in_yaml11 for cell in entry.cells), entry.job
    jsonschema.validate(yaml.safe_load(text), schema())


def test_the_example_documents_every_cell_and_the_quoting_trap() -> None:
    text = (OVERLAYS / "job_policy.example.yaml").read_text("utf-8")
    for cell in DEFAULT_REQUIRED_CELLS:
        assert f"# {cell}:" in text, cell
    for cell, spec in CELLS.items():
        if not spec.required:
            assert f"# {cell} (optional):" in text, cell
            assert f"\n    {cell}: " in text, f"{cell} needs a signed example"
    assert "QUOTING TRAP" in text
    assert 'idempotent: "yes"' in text
