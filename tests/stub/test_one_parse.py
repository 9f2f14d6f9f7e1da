"""The stub parses each text once: the strict reader's pass hands its events to the
layout and the proof, and they are the events a separate ``YAML(typ="rt").parse`` yields."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from pytest_jobledger.core.readers import Unreadable, parse_yaml
from pytest_jobledger.ledger.model import Ledger
from pytest_jobledger.stub.plan import stub_overlay

CASES = Path(__file__).resolve().parents[1] / "cases" / "stub"
OVERLAYS = sorted(CASES.glob("*/overlay.yaml")) + sorted(CASES.glob("*/expected.yaml"))


def _shape(event: Any) -> tuple[Any, ...]:
    return (
        type(event).__name__,
        getattr(event, "value", None),
        getattr(event, "anchor", None),
        str(getattr(event, "tag", None)),
        getattr(event, "implicit", None),
        getattr(event, "style", None),
        getattr(event, "flow_style", None),
        event.start_mark.index,
        event.end_mark.index,
    )


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_strict_pass_records_the_events_a_separate_parse_yields(overlay: Path) -> None:
    text = overlay.read_bytes().decode("utf-8")
    recorded: list[Any] = []
    try:
        parse_yaml(text, recorded)
    except Unreadable:
        return  # refused: the stub stops there, and no event is used
    separate = list(YAML(typ="rt").parse(text))
    assert [_shape(e) for e in recorded] == [_shape(e) for e in separate]


def test_adding_one_entry_parses_the_old_and_the_new_text_once_each(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Counted, not timed: every ruamel pass makes a round-trip parser (PyYAML's second opinion
    is libyaml's, a fraction of a ruamel pass)."""
    from ruamel.yaml.parser import RoundTripParser

    made: list[int] = []
    real = RoundTripParser.__init__

    def counting(self: RoundTripParser, *args: Any, **kwargs: Any) -> None:
        made.append(1)
        real(self, *args, **kwargs)

    monkeypatch.setattr(RoundTripParser, "__init__", counting)
    entries = "".join(f"  app.tasks.job_{n:03d}:\n    idempotent: 'yes'\n" for n in range(40))
    text = f"jobs:\n{entries}"
    ids = [f"app.tasks.job_{n:03d}" for n in range(41)]
    ledger = Ledger.from_json(
        {"schema_version": 1, "jobs": [_job(i) for i in ids], "unsupported": []}
    )
    result = stub_overlay(text, ledger, required_cells=("idempotent",))
    assert [added.id for added in result.added] == ["app.tasks.job_040"]
    assert len(made) == 2  # the old text, the new text


def _job(job_id: str) -> dict[str, Any]:
    module, _, function = job_id.rpartition(".")
    return {
        "id": job_id,
        "function": function,
        "module": module,
        "path": "app/tasks.py",
        "line": 1,
        "framework": "celery",
        "decorator": "celery.shared_task",
        "name": None,
        "queue": None,
        "max_retries": None,
        "docstring": None,
    }
