"""pytest-jobledger: a static job ledger, a human-signed policy overlay, and a gate joining them.

The public face (``__all__``, pinned by ``tests/test_public_api.py``): the ``jobledger`` command
(:func:`main`), the pytest plugin (``plugin``, also ``jobledger_github`` in ``github.plugin``),
the configuration (:class:`Config`, :func:`load_config`), one reading of a project
(:class:`Session`) and the findings every presenter reads (:class:`Finding`, :class:`Kind`,
:class:`Check`, :class:`GateResult`). Everything else may move. The names are imported when
first used, so ``import pytest_jobledger`` stays cheap.

Data flows one way, one folder per stage (``tests/test_layering.py`` enforces the order):

- ``core/``: the leaves, importing nothing of the package: ``errors``, ``text``, ``readers``
  (one strict parser per format), ``paths`` (the root boundary), ``atomic`` (the one writer),
  ``environment`` (every ``JOBLEDGER_*`` variable), ``trace``;
- ``programs``, ``git``: how a program is found and started, and the one read-only git runner;
- ``project/``: ``[tool.jobledger]`` as one key table and a frozen ``Config``, and
  ``read_file``, the one reader of a project file;
- ``ledger/``: the code lane: the ledger's records, the committed file, its diff, renames;
- ``overlay/``: the human lane, read side: the overlay's records and every located refusal;
- ``findings``: the contract every presenter reads (kinds, findings, checks, the gate's result);
- ``extract/``: source files -> ledger rows, statically with libcst (nothing is imported or run);
- ``baseline/``: a legacy repository's known failures, applied to the gate's findings once (known
  -> notice, fixed -> ``baseline-stale``), so the gate fails only on new problems;
- ``draft/``: beside the chain, runs a person's draft command (``jobledger draft`` only);
- ``gate/``: the pure join of ledger and overlay, with the status items;
- ``stub/``: beside the chain, edits overlay text and never signs a cell;
- ``verdict/``: may an operator retry, requeue or replay a job? approved, blocked or needs-review;
- ``audit/``: the verdicts' append-only trail, chained by sha256 (it leans only on the leaves);
- ``memo/``: what ``list``, ``show`` and ``verdict`` worked out last time (the fresh ledger,
  the parsed overlay and roster, each text's redaction), signed with this machine's key and
  used only for exactly the same inputs, so an unchanged tree answers at once;
- ``session``: every input read once (``Session.open``), and the views the commands ask for;
- ``reporters/``: findings -> text or JSON for ``jobledger check``, ``markdown`` (inert Markdown),
  ``changes`` (``jobledger diff``), and ``reporters/runbook/``: the gate's result -> the runbook;
- ``docs/``: the runbook inside a MkDocs or Sphinx build (render's model; a refusal fails it);
- ``github/``: the GitHub Actions face (its context, annotations, SARIF, summary, the pytest
  plugin, the action);
- ``plugin``: ``pytest --jobledger``, one pytest item per policy cell;
- ``cli/``: the ``jobledger`` command, one module per subcommand (``__main__``: ``python -m``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0.dev0"

if TYPE_CHECKING:
    from . import plugin
    from .cli import main
    from .findings import Check, Finding, GateResult, Kind
    from .project import Config, load_config
    from .session import Session

#: Each public name -> the module that holds it (``None``: the name is the module itself).
_PUBLIC: dict[str, tuple[str, str | None]] = {
    "main": ("pytest_jobledger.cli", "main"),
    "plugin": ("pytest_jobledger.plugin", None),
    "Config": ("pytest_jobledger.project", "Config"),
    "load_config": ("pytest_jobledger.project", "load_config"),
    "Session": ("pytest_jobledger.session", "Session"),
    "Finding": ("pytest_jobledger.findings", "Finding"),
    "Kind": ("pytest_jobledger.findings", "Kind"),
    "Check": ("pytest_jobledger.findings", "Check"),
    "GateResult": ("pytest_jobledger.findings", "GateResult"),
}

__all__ = [
    "Check",
    "Config",
    "Finding",
    "GateResult",
    "Kind",
    "Session",
    "__version__",
    "load_config",
    "main",
    "plugin",
]


def __getattr__(name: str) -> Any:
    if name not in _PUBLIC:
        raise AttributeError(f"module 'pytest_jobledger' has no attribute {name!r}")
    module, attribute = _PUBLIC[name]
    loaded = importlib.import_module(module)
    return loaded if attribute is None else getattr(loaded, attribute)
