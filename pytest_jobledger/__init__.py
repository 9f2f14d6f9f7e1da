"""pytest-jobledger: a static job ledger, a human-signed policy overlay, and a gate joining them."""

from __future__ import annotations

__version__ = "0.1.0.dev0"
