"""Celery: ``@app.task``, ``@shared_task``, call-style ``app.task(fn)`` and class-based tasks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from .rules import Evaluation, FieldRule, Framework, Rules

if TYPE_CHECKING:  # the tables are read without libcst: a warm run never imports it
    import libcst as cst

    from ..values import Outcome


def _retry_kwargs(node: cst.BaseExpression, ev: Evaluation) -> Mapping[str, Outcome]:
    from ..values import Known

    """``retry_kwargs={"max_retries": 5, "countdown": 10}`` bounds autoretry when the
    registration does not set ``max_retries``/``default_retry_delay`` itself."""
    value = ev.value(node)
    if not isinstance(value, Known) or not isinstance(value.value, dict):
        return {}
    found: dict[str, Outcome] = {}
    if "max_retries" in value.value:
        found["max_retries"] = Known(value.value["max_retries"])
    if "countdown" in value.value:
        found["retry_delay_s"] = Known(value.value["countdown"])
    return found


TASK = Rules(
    framework="celery",
    fields=(
        FieldRule("name", keywords=("name",)),
        FieldRule("queue", keywords=("queue",)),
        FieldRule("max_retries", keywords=("max_retries",)),
        FieldRule("retry_delay_s", keywords=("default_retry_delay",)),
        FieldRule("soft_time_limit_s", keywords=("soft_time_limit",)),
        FieldRule("time_limit_s", keywords=("time_limit",)),
    ),
    fn_first=True,
    hooks={"retry_kwargs": _retry_kwargs},
    # https://docs.celeryq.dev/en/stable/userguide/tasks.html#list-of-options
    delivery={
        "acks_late": "acks_late",
        "reject_on_worker_lost": "reject_on_worker_lost",
        "autoretry_for": "autoretry_for",
        "retry_backoff": "retry_backoff",
        "retry_jitter": "retry_jitter",
        "rate_limit": "rate_limit",
        "expires": "expires_s",
    },
)

CELERY = Framework(
    name="celery",
    decorators={
        "celery.shared_task": TASK,
        "celery.Celery().task": TASK,
    },
    canonical={
        "celery.app.shared_task": "celery.shared_task",
        "celery.app.base.Celery": "celery.Celery",
        "celery.app.Celery": "celery.Celery",
        "celery.current_app": "celery.Celery()",
        "celery.app.current_app": "celery.Celery()",
        "celery.app.task.Task": "celery.Task",
        "celery.app.Task": "celery.Task",
    },
    instance_classes=frozenset({"celery.Celery"}),
    register_methods=frozenset({"celery.Celery().register_task"}),
    class_rules=TASK,
)

#: Celery's own configuration (:mod:`..celery_config`), on an app object: ``app.conf.task_routes
#: = ...``, ``app.conf.beat_schedule = ...``, ``app.conf.update(...)``, a module named by
#: ``app.config_from_object("proj.celeryconfig")``; and ``app.send_task("name")``. Documented at
#: https://docs.celeryq.dev/en/stable/userguide/routing.html (``task_routes``: a dict or a list of
#: dicts from a task name or glob to its options or queue; a task's own ``queue`` comes first) and
#: https://docs.celeryq.dev/en/stable/userguide/periodic-tasks.html (``beat_schedule``).
CONFIG_KEYS: frozenset[str] = frozenset({"task_routes", "beat_schedule"})
CONF = "celery.Celery().conf"
SEND_TASK = "celery.Celery().send_task"
CONFIG_FROM_OBJECT = "celery.Celery().config_from_object"
#: https://docs.celeryq.dev/en/stable/django/first-steps-with-django.html: Django's settings as
#: the configuration, the module named by ``DJANGO_SETTINGS_MODULE``'s default.
DJANGO_SETTINGS = "django.conf:settings"
ENVIRON_SETDEFAULT = "os.environ.setdefault"
SETTINGS_VARIABLE = "DJANGO_SETTINGS_MODULE"
#: Words whose mere presence makes a file worth parsing (:mod:`..prefilter`).
CONFIG_WORDS: frozenset[str] = CONFIG_KEYS | {"config_from_object"}
