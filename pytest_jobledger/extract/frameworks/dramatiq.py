"""Dramatiq: ``@dramatiq.actor(queue_name=..., max_retries=..., time_limit=<ms>)``."""

from __future__ import annotations

from .rules import FieldRule, Framework, Rules

ACTOR = Rules(
    framework="dramatiq",
    fields=(
        FieldRule("name", keywords=("actor_name",)),
        FieldRule("queue", keywords=("queue_name",)),
        FieldRule("max_retries", keywords=("max_retries",)),
        FieldRule("time_limit_s", keywords=("time_limit",)),
    ),
    time_unit="ms",
    fn_first=True,
    positional_names=("fn",),
    # https://dramatiq.io/reference.html#dramatiq.middleware.AgeLimit: max_age (ms) drops a
    # message older than it, as Celery's expires does
    delivery={"max_age": "expires_s"},
    not_applicable={
        "retry_delay_s": "dramatiq backs off between min_backoff and max_backoff (see options)",
        "soft_time_limit_s": "dramatiq has no soft time limit",
    },
)

DRAMATIQ = Framework(
    name="dramatiq",
    decorators={"dramatiq.actor": ACTOR},
    canonical={"dramatiq.actor.actor": "dramatiq.actor", "dramatiq.actor.Actor": "dramatiq.Actor"},
)
