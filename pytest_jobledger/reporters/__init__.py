"""Reporters, picked by name: each turns findings into text and nothing else.

A reporter is a module in this package with ``report(findings, config) -> str``; it never parses
and never decides anything. Adding an output format is one line in :data:`REPORTERS` (name ->
module name in this package), imported only when asked for.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence

from ..findings import Finding
from ..project import Config

Reporter = Callable[[Sequence[Finding], Config], str]

REPORTERS: dict[str, str] = {
    "text": "text",
    "json": "json",
    "github": "github",
    "sarif": "sarif",
}


def names() -> list[str]:
    return list(REPORTERS)


def get(name: str) -> Reporter:
    """The ``report`` function of the reporter registered as ``name`` (KeyError if none)."""
    module = importlib.import_module(f"{__name__}.{REPORTERS[name]}")
    report: Reporter = module.report
    return report
