"""RQ and django-rq: ``@job("queue", timeout="10m", retry=Retry(max=3, interval=60))``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from .rules import Evaluation, FieldRule, Framework, Rules

if TYPE_CHECKING:  # the tables are read without libcst: a warm run never imports it
    import libcst as cst

    from ..values import Outcome

RETRY_KEY = "rq.Retry"


def _retry(node: cst.BaseExpression, ev: Evaluation) -> Mapping[str, Outcome]:
    import libcst

    from ..values import Known, Unknown, source_text

    if not isinstance(node, libcst.Call) or ev.key_of(node.func) != RETRY_KEY:
        reason = Unknown(f"retry={source_text(node)} is not an rq Retry(...) with literal values")
        return {"max_retries": reason, "retry_delay_s": reason}
    positional = [arg.value for arg in node.args if not arg.keyword and not arg.star]
    keywords = {arg.keyword.value: arg.value for arg in node.args if arg.keyword}
    found: dict[str, Outcome] = {}
    for field, keyword, position in (("max_retries", "max", 0), ("retry_delay_s", "interval", 1)):
        expr = keywords.get(keyword) or (
            positional[position] if len(positional) > position else None
        )
        if expr is None:
            continue
        outcome = ev.value(expr)
        if (
            field == "retry_delay_s"
            and isinstance(outcome, Known)
            and isinstance(outcome.value, list)
        ):
            outcome = Unknown(f"Retry interval is a list of delays: {source_text(expr)}")
        found[field] = outcome
    return found


JOB = Rules(
    framework="rq",
    fields=(
        FieldRule("queue", keywords=("queue",), position=0),
        FieldRule("time_limit_s", keywords=("timeout", "job_timeout")),
    ),
    positional_names=("queue", "connection", "timeout"),
    durations=True,
    hooks={"retry": _retry},
    # https://python-rq.org/docs/#job-options: ttl (discarded if not run in time), result_ttl
    delivery={"ttl": "expires_s", "result_ttl": "result_ttl_s"},
    not_applicable={
        "name": "rq has no registered task name; jobs are enqueued by import path",
        "soft_time_limit_s": "rq has no soft time limit",
    },
)

RQ = Framework(
    name="rq",
    decorators={"rq.decorators.job": JOB, "django_rq.job": JOB},
    canonical={
        "django_rq.decorators.job": "django_rq.job",
        "rq.retry.Retry": RETRY_KEY,
        "rq.job.Retry": RETRY_KEY,
    },
)
