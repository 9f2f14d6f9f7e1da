"""Golden stub cases: one folder each under ``cases/``, picked up automatically.

A folder holds ``ledger.json`` (the fresh ledger), optionally ``overlay.yaml`` (absent: the file
does not exist yet), ``previous.json`` (the committed ledger, the rename evidence) and
``options.json`` (``renames``, ``rename`` as ``[OLD, NEW]``, ``quote_yes_no``,
``required_cells``, ``blocked_values``, ``schema``; ``note`` is for the reader). Expected:
``expected.yaml`` (byte for byte) and ``expected_report.txt``, or ``expected_error.txt`` for an
overlay the stub must refuse. Set ``JOBLEDGER_UPDATE_GOLDEN=1`` to rewrite the expected files,
then review the diff like code.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_jobledger.ledger.model import Ledger
from pytest_jobledger.project import DEFAULT_BLOCKED_VALUES, DEFAULT_REQUIRED_CELLS
from pytest_jobledger.stub.plan import StubResult, stub_overlay

CASES = Path(__file__).resolve().parent.parent / "cases" / "stub"
UPDATE = os.environ.get("JOBLEDGER_UPDATE_GOLDEN") == "1"


@dataclass(frozen=True)
class Case:
    folder: Path

    @property
    def name(self) -> str:
        return self.folder.name

    @property
    def overlay(self) -> str | None:
        path = self.folder / "overlay.yaml"
        return path.read_bytes().decode("utf-8") if path.exists() else None

    @property
    def options(self) -> dict[str, Any]:
        path = self.folder / "options.json"
        return json.loads(path.read_text("utf-8")) if path.exists() else {}

    def ledger(self, name: str) -> Ledger | None:
        path = self.folder / name
        return Ledger.from_json(json.loads(path.read_text("utf-8"))) if path.exists() else None

    def run(self, text: str | None, *, again: bool = False) -> StubResult:
        """The stub on ``text``; ``again`` is a later plain run (a by-hand rename is done once)."""
        options = dict(self.options)
        if again:
            options.pop("rename", None)
        ledger = self.ledger("ledger.json")
        assert ledger is not None, f"{self.folder}: ledger.json is missing"
        return stub_overlay(
            text,
            ledger,
            self.ledger("previous.json"),
            required_cells=tuple(options.get("required_cells", DEFAULT_REQUIRED_CELLS)),
            blocked_values=tuple(options.get("blocked_values", DEFAULT_BLOCKED_VALUES)),
            renames=bool(options.get("renames", False)),
            schema=options.get("schema"),
            rename=(options["rename"][0], options["rename"][1]) if "rename" in options else None,
            quote_yes_no=bool(options.get("quote_yes_no", False)),
        )

    def expected(self, name: str, actual: str | None = None) -> str | None:
        """The expected file's exact text; in update mode, write ``actual`` there first."""
        path = self.folder / name
        if UPDATE:
            if actual is None:
                path.unlink(missing_ok=True)
            else:
                path.write_bytes(actual.encode("utf-8"))
        return path.read_bytes().decode("utf-8") if path.exists() else None


def all_cases() -> list[Case]:
    return [Case(folder) for folder in sorted(CASES.iterdir()) if folder.is_dir()]
