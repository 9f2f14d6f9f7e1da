"""Huey: ``@huey.task(...)``, ``@huey.periodic_task(crontab(...))`` and djhuey's task helpers."""

from __future__ import annotations

from .rules import FieldRule, Framework, Rules

_FIELDS = (
    FieldRule("name", keywords=("name",)),
    FieldRule("max_retries", keywords=("retries",)),
    FieldRule("retry_delay_s", keywords=("retry_delay",)),
    FieldRule("time_limit_s", keywords=("timeout",)),
)
_NOT_APPLICABLE = {
    "queue": "huey has no per-task queue; the Huey instance is the queue",
    "soft_time_limit_s": "huey has no soft time limit",
}

#: https://huey.readthedocs.io/en/latest/api.html#Huey.task: ``expires`` (seconds) drops a task
#: not run in time.
_DELIVERY = {"expires": "expires_s"}

TASK = Rules(framework="huey", fields=_FIELDS, not_applicable=_NOT_APPLICABLE, delivery=_DELIVERY)
PERIODIC = Rules(
    framework="huey",
    fields=_FIELDS,
    positional_names=("schedule",),
    not_applicable=_NOT_APPLICABLE,
    delivery=_DELIVERY,
)

#: ``huey.context_task(obj, as_argument=False, **kwargs)``: a task run inside ``with obj``.
CONTEXT = Rules(
    framework="huey",
    fields=_FIELDS,
    positional_names=("obj", "as_argument"),
    not_applicable=_NOT_APPLICABLE,
    delivery=_DELIVERY,
)
_HUEY_CLASSES = (
    "Huey",
    "RedisHuey",
    "RedisExpireHuey",
    "PriorityRedisHuey",
    "PriorityRedisExpireHuey",
    "SqliteHuey",
    "MemoryHuey",
    "FileHuey",
    "BlackHoleHuey",
)
_DJHUEY = "huey.contrib.djhuey"

HUEY = Framework(
    name="huey",
    decorators={
        "huey.Huey().task": TASK,
        "huey.Huey().periodic_task": PERIODIC,
        "huey.Huey().context_task": CONTEXT,
        f"{_DJHUEY}.task": TASK,
        f"{_DJHUEY}.db_task": TASK,
        f"{_DJHUEY}.periodic_task": PERIODIC,
        f"{_DJHUEY}.db_periodic_task": PERIODIC,
    },
    canonical={
        **{f"huey.{name}": "huey.Huey" for name in _HUEY_CLASSES if name != "Huey"},
        **{f"huey.api.{name}": "huey.Huey" for name in _HUEY_CLASSES},
        f"{_DJHUEY}.HUEY": "huey.Huey()",
    },
    instance_classes=frozenset({"huey.Huey"}),
)
