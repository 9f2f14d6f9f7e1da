"""Reporters, picked by name: each turns findings into text and nothing else.

A reporter is a module with ``report(findings, config) -> str``; it never parses and never
decides anything. Adding an output format is one line in :data:`REPORTERS` (name -> module),
imported only when asked for. The GitHub formats (workflow annotations, SARIF) live in
``github/``, which owns the GitHub context they read.

- ``text`` (+ ``terminal``: when to colour; ``short``: a finding's first line, also pytest's
  failure text) and ``json``: ``jobledger check``'s formats;
- ``changes``: ``jobledger diff`` as text, Markdown or JSON;
- ``markdown``: Markdown that shows a hostile repository's text as inert text;
- ``runbook/``: the gate's result -> the runbook page (Markdown or its JSON model).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence

from ..findings import Finding
from ..project import Config

Reporter = Callable[[Sequence[Finding], Config], str]

REPORTERS: dict[str, str] = {
    "text": "pytest_jobledger.reporters.text",
    "json": "pytest_jobledger.reporters.json",
    "github": "pytest_jobledger.github.annotations",
    "sarif": "pytest_jobledger.github.sarif",
}


def names() -> list[str]:
    return list(REPORTERS)


def get(name: str) -> Reporter:
    """The ``report`` function of the reporter registered as ``name`` (KeyError if none)."""
    module = importlib.import_module(REPORTERS[name])
    report: Reporter = module.report
    return report
