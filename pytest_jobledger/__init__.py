"""pytest-jobledger: a static job ledger, a human-signed policy overlay, and a gate joining them.

Data flows one way, one folder per stage:

- ``extract/``: source files -> ledger rows, statically with libcst (nothing is imported or run);
- ``ledger/``: the code lane: the ledger's records, the committed file, its diff, renames;
- ``overlay/``: the human lane, read side: the overlay's records and every located refusal;
- ``gate/``: the pure join of ledger and overlay, with the status items;
- ``session``: every input read once (``Session.open``), and the views the commands ask for;
- ``baseline/``: a legacy repository's known failures, applied to the gate's findings once (known
  -> notice, fixed -> ``baseline-stale``), so the gate fails only on new problems;
- ``findings``: the contract every presenter reads (kinds, findings, checks, the gate's result);
- ``reporters/``: findings -> text, JSON, SARIF or GitHub commands for ``jobledger check``, and
  ``reporters/runbook/``: the gate's result -> the runbook (Markdown or its JSON model);
- ``docs/``: the runbook inside a MkDocs or Sphinx build (render's model; a refusal fails it);
- ``github/``: the GitHub Actions face (annotations, summary, the pytest plugin, the action);
- ``plugin``: ``pytest --jobledger``, one pytest item per policy cell;
- ``cli/``: the ``jobledger`` command, one module per subcommand;
- ``stub/``: beside the chain, edits overlay text and never signs a cell;
- ``verdict/``: may an operator retry, requeue or replay a job? approved, blocked or needs-review;
- ``audit/``: the verdicts' append-only trail, chained by sha256 (it leans only on the core).
- ``draft/``: beside the chain, runs a person's draft command (``jobledger draft`` only).

Shared by all: ``config`` (``[tool.jobledger]``), ``errors`` (located user errors), ``atomic``
(durable writes) and ``text`` (one line, clipped, "did you mean").
"""

from __future__ import annotations

__version__ = "0.1.0.dev0"
