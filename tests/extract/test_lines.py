"""Line numbers come from walking libcst's and ast's trees in step; libcst's own PositionProvider
is the fallback. Both must give the same ledger for every case and example."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pytest_jobledger.extract import extract_ledger, loading, walker
from pytest_jobledger.project import load_config

HERE = Path(__file__).resolve().parent
TREES = sorted(
    [p for p in (HERE.parent / "cases" / "extract").iterdir() if p.is_dir()]
    + [p.parent for p in (HERE.parents[1] / "examples").glob("*/pyproject.toml")]
)


@pytest.mark.parametrize("tree", TREES, ids=[f"{p.parent.name}/{p.name}" for p in TREES])
def test_fallback_positions_give_the_same_ledger(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = load_config(root=tree)
    fast = extract_ledger(config).dumps()

    def refuse(data: bytes) -> ast.Module | None:
        return None  # as when the file uses syntax newer than the running Python

    monkeypatch.setattr(walker, "twin_tree", refuse)
    monkeypatch.setattr(loading, "twin_tree", refuse)  # the loader parses for the walker
    assert extract_ledger(config).dumps() == fast


def test_multiline_decorators_and_nested_blocks(tmp_path: Path) -> None:
    (tmp_path / "jobs.py").write_text(
        "from celery import shared_task\n"
        "try:\n"
        "    import ujson as json\n"
        "except ImportError:  # pragma: no cover\n"
        "    import json\n"
        "if True:\n"
        "    pass\n"
        "elif False:\n"
        "    x = 1; y = 2\n"
        "else:\n"
        "    @shared_task(\n"
        "        queue='a',\n"
        "    )\n"
        "    def first(): ...\n"
        "class Holder:\n"
        "    @staticmethod\n"
        "    @shared_task(queue='b')\n"
        "    def second(): ...\n",
        encoding="utf-8",
    )
    ledger = extract_ledger(load_config(root=tmp_path))
    assert [(job.id, job.line) for job in ledger.jobs] == [
        ("jobs.Holder.second", 17),
        ("jobs.first", 11),
    ]
