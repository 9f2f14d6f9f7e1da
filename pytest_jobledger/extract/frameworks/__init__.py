"""The frameworks the extractor knows, one module each (``celery``, ``dramatiq``, ``huey``, ``rq``,
``django_tasks``, ``taskiq``, ``procrastinate``), each declaring its decorators as data: ``rules``
(how a registration's arguments map to ledger fields). Places that are not decorators have tables
too: ``enqueue`` (RQ's enqueued jobs), ``settings`` (arq's and SAQ's worker settings) and
``unsupported`` (job frameworks without a table, reported at their import)."""

from __future__ import annotations

from dataclasses import replace

from .celery import CELERY
from .django_tasks import DJANGO_TASKS
from .dramatiq import DRAMATIQ
from .enqueue import CANONICAL as ENQUEUE_CANONICAL
from .enqueue import QUEUE_MAKERS
from .huey import HUEY
from .procrastinate import PROCRASTINATE
from .rq import RQ as RQ_DECORATORS
from .rules import DELIVERY_KINDS, FIELD_KINDS, Evaluation, FieldRule, Framework, Rules
from .settings import ARQ, SAQ
from .taskiq import TASKIQ

#: RQ's decorators, and the queues and schedulers its enqueued jobs are handed to.
RQ = replace(
    RQ_DECORATORS,
    canonical={**RQ_DECORATORS.canonical, **ENQUEUE_CANONICAL},
    instance_classes=RQ_DECORATORS.instance_classes | QUEUE_MAKERS,
)

FRAMEWORKS: dict[str, Framework] = {
    fw.name: fw
    for fw in (CELERY, RQ, DRAMATIQ, HUEY, DJANGO_TASKS, TASKIQ, PROCRASTINATE, ARQ, SAQ)
}

#: The app classes an app factory of the scanned tree may return (``def create_app(): return
#: Celery(...)``), read by :meth:`..resolve.ProjectIndex.made_by`: every framework's app object
#: but RQ's queues (a ``Queue`` is too common a word to keep every body that spells it).
FACTORY_APPS: frozenset[str] = frozenset().union(
    *(fw.instance_classes for fw in FRAMEWORKS.values() if fw is not RQ)
)

#: Rules for a homegrown decorator with no ``framework``: its mapped fields, nothing else.
CUSTOM = Rules(framework="custom", fields=())

__all__ = [
    "CUSTOM",
    "DELIVERY_KINDS",
    "FACTORY_APPS",
    "FIELD_KINDS",
    "FRAMEWORKS",
    "Evaluation",
    "FieldRule",
    "Framework",
    "Rules",
]
