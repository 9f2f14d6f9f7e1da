"""Static extraction of job registrations (placeholder until the engine lands)."""

from __future__ import annotations

from ..config import Config
from ..model import Ledger


def extract_ledger(config: Config) -> Ledger:
    raise NotImplementedError
