"""The gate: the pure join of ledger and overlay, and the I/O shell with its status items.

- ``join``: ledger + overlay -> joined jobs and one check per item (pure);
- ``cells``: how each cell is judged;
- ``status``: the overlay-valid and ledger-fresh status items;
- ``shell``: reads what the join needs and runs it (:func:`evaluate`).
"""

from __future__ import annotations

from .shell import evaluate

__all__ = ["evaluate"]
