"""Jobs listed in a worker's settings rather than decorated: arq and SAQ.

arq (https://arq-docs.helpmanual.io/#arq.worker.Worker, https://arq-docs.helpmanual.io/#arq.worker.func,
https://arq-docs.helpmanual.io/#arq.cron.cron): a settings class's ``functions = [fn,
func(fn, name=..., max_tries=..., timeout=..., keep_result=...)]`` and ``cron_jobs = [cron(fn,
hour=..., timeout=...)]``; the class's ``queue_name``, ``max_tries`` and ``job_timeout`` apply to
every function that does not set its own (the Worker's documented defaults: ``"arq:queue"``, 5
tries, 300 s). arq counts *tries*: ``max_tries=3`` runs a job at most 3 times, so 2 retries. A
``cron(...)`` job defaults to ``max_tries=1`` (no retry), not to the class's.

SAQ (https://saq-py.readthedocs.io/en/latest/): the settings mapping's ``functions`` (a function,
or a ``("name", fn)`` pair) and ``cron_jobs = [CronJob(fn, cron=..., timeout=..., retries=...)]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from .rules import Evaluation, FieldRule, Framework, Rules

if TYPE_CHECKING:  # the tables are read without libcst: a warm run never imports it
    import libcst as cst

    from ..values import Outcome

#: Modules whose import makes a module's settings worth reading (:mod:`..worker_settings`).
SETTINGS_MODULES: frozenset[str] = frozenset({"arq", "saq"})

ARQ_FUNC = "arq.func"
ARQ_CRON = "arq.cron"
SAQ_CRON = "saq.CronJob"

#: The settings' attributes (arq) or keys (SAQ) that list jobs, with the call that wraps one.
LISTS: Mapping[str, Mapping[str, str]] = {
    "arq": {"functions": ARQ_FUNC, "cron_jobs": ARQ_CRON},
    "saq": {"functions": "", "cron_jobs": SAQ_CRON},
}

#: arq's callables that take the settings as keywords (``Worker(functions=[...])``,
#: ``run_worker(Settings, functions=[...])``), by canonical key.
ARQ_WORKER_CALLS: frozenset[str] = frozenset(
    {"arq.Worker", "arq.worker.Worker", "arq.run_worker", "arq.worker.run_worker"}
)

#: The last words of those callables: a place the pre-filter keeps (its binding decides).
ARQ_WORKER_WORDS: frozenset[str] = frozenset(key.rsplit(".", 1)[-1] for key in ARQ_WORKER_CALLS)

#: An arq settings class's worker-wide defaults, read where a function sets nothing.
ARQ_CLASS_DEFAULTS: tuple[str, ...] = ("queue_name", "max_tries", "job_timeout")


def tries_to_retries(node: cst.BaseExpression, ev: Evaluation) -> Mapping[str, Outcome]:
    """arq's ``max_tries`` counts the first run: the ledger's ``max_retries`` is one less."""
    from ..values import Known, Unknown, source_text

    value = ev.value(node)
    if not isinstance(value, Known):
        return {"max_retries": value}
    tries = value.value
    if isinstance(tries, int) and not isinstance(tries, bool) and tries >= 1:
        return {"max_retries": Known(tries - 1)}
    return {"max_retries": Unknown(f"max_tries={source_text(node, 40)} is not a count of tries")}


_ARQ_NOT_APPLICABLE = {
    "retry_delay_s": "arq retries when the job raises Retry(defer=...); there is no set delay",
    "soft_time_limit_s": "arq has no soft time limit",
}

ARQ_FUNCTION = Rules(
    framework="arq",
    fields=(
        FieldRule("name", keywords=("name",)),
        FieldRule("queue", keywords=("queue_name",)),
        FieldRule("time_limit_s", keywords=("timeout", "job_timeout")),
    ),
    positional_names=("coroutine",),
    hooks={"max_tries": tries_to_retries},
    not_applicable=_ARQ_NOT_APPLICABLE,
    delivery={"keep_result": "result_ttl_s"},
)

SAQ_JOB = Rules(
    framework="saq",
    fields=(FieldRule("time_limit_s", keywords=("timeout",)),),
    positional_names=("function",),
    not_applicable={
        "name": "SAQ names a job by its function's name (or the name paired with it)",
        "queue": "SAQ's queue is the worker settings' queue object, not read by the parser",
        "max_retries": "SAQ's retries counts attempts, the first run included (see options)",
        "retry_delay_s": "SAQ's retry delay is set per job when it is enqueued",
        "soft_time_limit_s": "SAQ has no soft time limit",
    },
)

ARQ = Framework(
    name="arq",
    decorators={},
    canonical={"arq.worker.func": ARQ_FUNC, "arq.cron.cron": ARQ_CRON},
    class_rules=ARQ_FUNCTION,
)

SAQ = Framework(
    name="saq",
    decorators={},
    canonical={"saq.job.CronJob": SAQ_CRON},
    class_rules=SAQ_JOB,
)
