"""taskiq: ``@broker.task``, ``@broker.task(task_name=..., retry_on_error=..., max_retries=...,
timeout=...)`` and ``broker.register_task(fn, ...)`` on an instance of a taskiq broker class.

Documented at https://taskiq-python.github.io/guide/getting-started.html (labels are keyword
arguments of ``task``) and https://taskiq-python.github.io/available-components/middlewares.html
(``retry_on_error`` and ``max_retries`` are read by ``SimpleRetryMiddleware``, which retries only
when it is installed on the broker). A broker is its own queue: there is no per-task queue. The
broker's ``with_*`` methods return the broker itself, so ``ListQueueBroker(url).with_result_backend(
...)`` is still a broker.
"""

from __future__ import annotations

from .rules import FieldRule, Framework, Rules

BROKER = "taskiq.AsyncBroker"

TASK = Rules(
    framework="taskiq",
    fields=(
        FieldRule("name", keywords=("task_name",)),
        FieldRule("max_retries", keywords=("max_retries",)),
        FieldRule("time_limit_s", keywords=("timeout",)),
    ),
    fn_first=True,
    positional_names=("func",),
    not_applicable={
        "queue": "taskiq has no per-task queue; the broker is the queue",
        "retry_delay_s": "taskiq's SimpleRetryMiddleware re-sends at once; SmartRetryMiddleware "
        "reads delay from its own settings",
        "soft_time_limit_s": "taskiq has no soft time limit",
    },
)

#: Broker classes of taskiq and its maintained broker packages (each a subclass of AsyncBroker).
_BROKERS = {
    "taskiq": ("AsyncBroker", "InMemoryBroker", "ZeroMQBroker"),
    "taskiq.brokers.inmemory_broker": ("InMemoryBroker",),
    "taskiq.brokers.zmq_broker": ("ZeroMQBroker",),
    "taskiq.abc.broker": ("AsyncBroker",),
    "taskiq_redis": (
        "ListQueueBroker",
        "PubSubBroker",
        "RedisStreamBroker",
        "ListQueueClusterBroker",
        "RedisStreamClusterBroker",
        "ListQueueSentinelBroker",
        "PubSubSentinelBroker",
        "RedisStreamSentinelBroker",
    ),
    "taskiq_aio_pika": ("AioPikaBroker",),
    "taskiq_nats": ("NatsBroker", "PullBasedJetStreamBroker", "PushBasedJetStreamBroker"),
}

TASKIQ = Framework(
    name="taskiq",
    decorators={f"{BROKER}().task": TASK, f"{BROKER}().register_task": TASK},
    canonical={
        f"{module}.{name}": BROKER
        for module, names in _BROKERS.items()
        for name in names
        if f"{module}.{name}" != BROKER
    },
    instance_classes=frozenset({BROKER}),
    returns_self=frozenset(
        {
            "with_result_backend",
            "with_middlewares",
            "with_id_generator",
            "with_event_handlers",
            "with_serializer",
            "with_formatter",
        }
    ),
)
