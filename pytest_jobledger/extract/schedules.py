"""Schedules stacked on a job's own decorator (procrastinate's ``@app.periodic(cron=...)`` on
``@app.task``): read by binding, recorded as an option of the job they schedule."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import libcst as cst

from ..ledger.model import Job, JSONValue
from .binding import resolve_in
from .frameworks import FRAMEWORKS
from .records import DecoratorSite, ModuleSummary
from .resolve import ProjectIndex
from .values import Known, Outcome


def scheduled(index: ProjectIndex, summary: ModuleSummary, site: DecoratorSite, job: Job) -> Job:
    """``job`` with what a schedule decorator stacked on the same def says (procrastinate's
    ``@app.periodic(cron=...)``): its keyword arguments, under the framework's option."""
    schedules = FRAMEWORKS[job.framework].schedules if job.framework in FRAMEWORKS else {}
    if not schedules:  # the framework stacks no schedule on a job
        return job
    options, unresolved = dict(job.options), dict(job.unresolved)
    for other in summary.decorated:
        node = other.decorator
        if other.target is not site.target or not isinstance(node, cst.Call):
            continue
        ref, local = resolve_in(index, summary, node.func, other.context)
        option = schedules.get(ref.key) if ref is not None and not local else None
        if option is None:
            continue
        facts: dict[str, JSONValue] = {}
        for keyword, value in _keywords(index, summary, node):
            if isinstance(value, Known):
                facts[keyword] = value.value
            else:
                unresolved[f"options.{option}.{keyword}"] = value.reason
        options[option] = facts
    return replace(
        job, options=dict(sorted(options.items())), unresolved=dict(sorted(unresolved.items()))
    )


def _keywords(
    index: ProjectIndex, summary: ModuleSummary, call: cst.Call
) -> Iterator[tuple[str, Outcome]]:
    for arg in call.args:
        if arg.keyword is not None:
            yield arg.keyword.value, index.value(summary, arg.value)
