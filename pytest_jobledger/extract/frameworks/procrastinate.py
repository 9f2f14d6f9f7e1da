"""procrastinate: ``@app.task(queue=..., name=..., retry=N | RetryStrategy(max_attempts=...),
lock=..., queueing_lock=...)`` on a ``procrastinate.App`` (or a ``Blueprint``), with
``@app.periodic(cron=...)`` stacked on it (the schedule; the task decorator is the job).

Documented at https://procrastinate.readthedocs.io/en/stable/howto/advanced/retry.html:
``retry=5`` retries 5 times (6 attempts), and is ``RetryStrategy(max_attempts=5)``; ``retry=True``
retries forever; unset, a job is not retried. The queue defaults to ``"default"``
(https://procrastinate.readthedocs.io/en/stable/reference.html#procrastinate.App.task); there is
no task time limit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from .rules import Evaluation, FieldRule, Framework, Rules

if TYPE_CHECKING:  # the tables are read without libcst: a warm run never imports it
    import libcst as cst

    from ..values import Outcome

APP = "procrastinate.App"
RETRY_STRATEGY = "procrastinate.RetryStrategy"


def _retry(node: cst.BaseExpression, ev: Evaluation) -> Mapping[str, Outcome]:
    import libcst

    from ..values import Known, Unknown, source_text

    if isinstance(node, libcst.Call) and ev.key_of(node.func) == RETRY_STRATEGY:
        found: dict[str, Outcome] = {}
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value == "max_attempts":
                found["max_retries"] = ev.value(arg.value)
            elif arg.keyword is not None and arg.keyword.value == "wait":
                found["retry_delay_s"] = ev.value(arg.value)
        if "max_retries" not in found:
            found["max_retries"] = Unknown(
                f"{source_text(node, 60)} sets no max_attempts: it retries without a bound"
            )
        return found
    value = ev.value(node)
    if isinstance(value, Known) and value.value is False:
        return {"max_retries": Known(0)}
    if isinstance(value, Known) and value.value is True:
        return {"max_retries": Unknown("retry=True retries without a bound")}
    if isinstance(value, Known) and isinstance(value.value, int):
        return {"max_retries": value}
    reason = f"retry={source_text(node, 60)} is not a whole number or a RetryStrategy(...)"
    return {"max_retries": Unknown(reason) if isinstance(value, Known) else value}


TASK = Rules(
    framework="procrastinate",
    fields=(FieldRule("name", keywords=("name",)), FieldRule("queue", keywords=("queue",))),
    fn_first=True,
    positional_names=("func",),
    hooks={"retry": _retry},
    not_applicable={
        "soft_time_limit_s": "procrastinate has no soft time limit",
        "time_limit_s": "procrastinate has no task time limit",
    },
)

PROCRASTINATE = Framework(
    name="procrastinate",
    decorators={f"{APP}().task": TASK},
    canonical={
        "procrastinate.app.App": APP,
        "procrastinate.Blueprint": APP,
        "procrastinate.blueprints.Blueprint": APP,
        "procrastinate.retry.RetryStrategy": RETRY_STRATEGY,
    },
    instance_classes=frozenset({APP}),
    # https://procrastinate.readthedocs.io/en/stable/howto/advanced/cron.html: the periodic
    # decorator schedules the task it is stacked on (``cron``, ``periodic_id``, ``kwargs``)
    schedules={f"{APP}().periodic": "periodic"},
)
