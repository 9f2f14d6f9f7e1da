"""RQ jobs that are enqueued rather than decorated: ``Queue(...).enqueue(fn, ...)``,
``enqueue_call(func=fn, ...)``, ``enqueue_in``/``enqueue_at``, django-rq's ``enqueue`` and
``get_queue(...)``, and rq-scheduler's ``schedule(..., func=fn)``/``cron(..., func=fn)``.

Documented at https://python-rq.org/docs/ (``enqueue(f, *args, job_timeout=..., retry=...,
result_ttl=..., ttl=..., failure_ttl=..., ...)``; other keywords are the function's own),
https://python-rq.org/docs/scheduling/ (``enqueue_at``/``enqueue_in``) and
https://github.com/rq/rq-scheduler#usage (``schedule``, ``cron``: ``queue_name``, ``timeout``,
``interval``, ``repeat``). A queue made by ``Queue()`` is named ``"default"``.

The receiver must be an RQ queue or an rq-scheduler by binding (a name bound to ``Queue(...)``,
imported or not, or ``Queue(...)`` itself): a method named ``enqueue`` on anything else is not a
job (:mod:`..enqueue`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .rq import JOB
from .rules import FieldRule, Rules

QUEUE = "rq.Queue"
SCHEDULER = "rq_scheduler.Scheduler"
GET_QUEUE = "django_rq.get_queue"

#: The method names (and django-rq's module-level ``enqueue``) a place is judged for.
ENQUEUE_WORDS: frozenset[str] = frozenset(
    {"enqueue", "enqueue_call", "enqueue_in", "enqueue_at", "schedule", "cron"}
)


@dataclass(frozen=True)
class Method:
    """Where an enqueueing method takes the function, and which of its keywords are the job's
    (every other keyword is handed to the function itself, so it is not read)."""

    position: int | None
    keyword: str | None
    reserved: frozenset[str]
    #: The positional arguments before the function, named for ``options`` (``cron``'s string).
    leading: tuple[str, ...] = ()


_QUEUE_RESERVED = frozenset(
    {"job_timeout", "timeout", "retry", "result_ttl", "ttl", "failure_ttl", "at_front"}
)
_SCHEDULER_RESERVED = frozenset(
    {"timeout", "queue_name", "result_ttl", "ttl", "interval", "repeat", "at_front"}
)

METHODS: dict[str, Method] = {
    f"{QUEUE}().enqueue": Method(0, "f", _QUEUE_RESERVED),
    f"{QUEUE}().enqueue_call": Method(0, "func", _QUEUE_RESERVED),
    f"{QUEUE}().enqueue_in": Method(1, None, _QUEUE_RESERVED),
    f"{QUEUE}().enqueue_at": Method(1, None, _QUEUE_RESERVED),
    f"{GET_QUEUE}().enqueue": Method(0, "f", _QUEUE_RESERVED),
    f"{GET_QUEUE}().enqueue_call": Method(0, "func", _QUEUE_RESERVED),
    f"{GET_QUEUE}().enqueue_in": Method(1, None, _QUEUE_RESERVED),
    f"{GET_QUEUE}().enqueue_at": Method(1, None, _QUEUE_RESERVED),
    "django_rq.enqueue": Method(0, "func", _QUEUE_RESERVED),
    f"{SCHEDULER}().schedule": Method(1, "func", _SCHEDULER_RESERVED),
    f"{SCHEDULER}().cron": Method(1, "func", _SCHEDULER_RESERVED | {"cron_string"}, ("cron",)),
    f"{SCHEDULER}().enqueue_at": Method(1, None, _SCHEDULER_RESERVED),
    f"{SCHEDULER}().enqueue_in": Method(1, None, _SCHEDULER_RESERVED),
}

#: The classes (and django-rq's factory) whose result is a queue or a scheduler.
QUEUE_MAKERS: frozenset[str] = frozenset({QUEUE, SCHEDULER, GET_QUEUE})

CANONICAL: dict[str, str] = {
    "rq.queue.Queue": QUEUE,
    "rq_scheduler.scheduler.Scheduler": SCHEDULER,
    "django_rq.queues.get_queue": GET_QUEUE,
    "django_rq.queues.enqueue": "django_rq.enqueue",
}


ENQUEUED = Rules(
    framework="rq",
    fields=(
        FieldRule("queue", keywords=("queue_name",)),
        FieldRule("time_limit_s", keywords=("job_timeout", "timeout")),
    ),
    durations=True,
    hooks=JOB.hooks,
    delivery=JOB.delivery,
    not_applicable={
        "name": "rq has no registered task name; jobs are enqueued by import path",
        "soft_time_limit_s": "rq has no soft time limit",
    },
)
