"""The gate: the pure join of ledger and overlay, with its status items.

- ``join``: ledger + overlay -> joined jobs and one check per item (pure);
- ``cells``: how each cell is judged; ``promises``: a signed promise checked against what the
  code says (a job signed not idempotent that its framework reruns);
- ``status``: the overlay-valid and ledger-fresh status items;
- ``readings``: the gate over one reading of the project (:func:`judge`);
- ``committed``: the committed ledger joined with the overlay (``list``, ``show``, ``verdict``);
- ``review``: review after change against a base; ``signatures``: whether a signature still
  holds (review age, known owner, allowed value); ``signers``: one author for a job's
  ``idempotent`` and ``purpose_accepted`` (``same_signer``, from the blame the session read);
  ``changes``: what operators will see change (``jobledger diff``); ``today``: the pinned day.

Nothing here reads a file or runs git: :mod:`pytest_jobledger.session` reads, once, and asks.
"""

from __future__ import annotations

from .readings import CommittedLedger, Readings, judge

__all__ = ["CommittedLedger", "Readings", "judge"]
