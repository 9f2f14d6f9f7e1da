"""Every finding kind, every unsupported pattern and every framework decorator the rules know has
at least one case folder: a new kind, pattern or decorator cannot land without its example."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_jobledger.extract import extract_ledger, sites
from pytest_jobledger.extract.frameworks import FRAMEWORKS
from pytest_jobledger.extract.matching import Match
from pytest_jobledger.extract.refs import Ref
from pytest_jobledger.findings import Kind
from pytest_jobledger.ledger.model import Pattern
from pytest_jobledger.project import Config, load_config

CASES = Path(__file__).resolve().parent / "cases"


def _expected(stage: str) -> list[dict[str, Any]]:
    return [
        json.loads((case / "expected.json").read_text("utf-8"))
        for case in sorted((CASES / stage).iterdir())
        if (case / "expected.json").is_file()
    ]


def test_every_kind_has_a_gate_case() -> None:
    kinds = {row["kind"] for case in _expected("gate") for row in case["findings"]}
    assert {kind.value for kind in Kind} - kinds == set()


def test_every_pattern_has_an_extraction_case() -> None:
    patterns = {
        row["pattern"] for case in _expected("extract") for row in case.get("unsupported", [])
    }
    assert {pattern.value for pattern in Pattern} - patterns == set()


def test_every_framework_decorator_has_an_extraction_case(monkeypatch: pytest.MonkeyPatch) -> None:
    """Extract every case, recording the framework key each registration matched."""
    matched: set[str] = set()
    real = sites.match

    def recording(ref: Ref, config: Config) -> Match | None:
        found = real(ref, config)
        if found is not None:
            matched.add(ref.key)
        return found

    monkeypatch.setattr(sites, "match", recording)
    decorators: list[str] = []
    for case in sorted((CASES / "extract").iterdir()):
        if (case / "expected.json").is_file():
            # without the cache: every registration must be matched here, in this process
            config = load_config(root=case).without_cache()
            ledger = extract_ledger(config)
            decorators.extend(job.decorator for job in ledger.jobs)
    known = {key for framework in FRAMEWORKS.values() for key in framework.decorators}
    assert known - matched == set()
    for framework in FRAMEWORKS.values():
        for method in framework.register_methods:
            name = method.rsplit(".", 1)[-1]
            assert any(decorator.endswith(f".{name}") for decorator in decorators), method
