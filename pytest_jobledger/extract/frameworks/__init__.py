"""The frameworks the extractor knows, one module each (``celery``, ``dramatiq``, ``huey``, ``rq``),
each declaring its decorators as data: ``rules`` (how a registration's arguments map to ledger
fields)."""

from __future__ import annotations

from .celery import CELERY
from .dramatiq import DRAMATIQ
from .huey import HUEY
from .rq import RQ
from .rules import FIELD_KINDS, Evaluation, FieldRule, Framework, Rules

FRAMEWORKS: dict[str, Framework] = {fw.name: fw for fw in (CELERY, RQ, DRAMATIQ, HUEY)}

#: Rules for a homegrown decorator with no ``framework``: its mapped fields, nothing else.
CUSTOM = Rules(framework="custom", fields=())

__all__ = ["CUSTOM", "FIELD_KINDS", "FRAMEWORKS", "Evaluation", "FieldRule", "Framework", "Rules"]
