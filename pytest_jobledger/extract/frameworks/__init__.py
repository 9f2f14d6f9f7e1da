"""The frameworks the extractor knows, one module each."""

from __future__ import annotations

from .celery import CELERY
from .django_tasks import DJANGO_TASKS
from .dramatiq import DRAMATIQ
from .huey import HUEY
from .procrastinate import PROCRASTINATE
from .rq import RQ
from .rules import FIELD_KINDS, Evaluation, FieldRule, Framework, Rules
from .taskiq import TASKIQ

FRAMEWORKS: dict[str, Framework] = {
    fw.name: fw for fw in (CELERY, RQ, DRAMATIQ, HUEY, DJANGO_TASKS, TASKIQ, PROCRASTINATE)
}

#: Rules for a homegrown decorator with no ``framework``: its mapped fields, nothing else.
CUSTOM = Rules(framework="custom", fields=())

__all__ = ["CUSTOM", "FIELD_KINDS", "FRAMEWORKS", "Evaluation", "FieldRule", "Framework", "Rules"]
