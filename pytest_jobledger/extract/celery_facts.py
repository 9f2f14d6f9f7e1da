"""What Celery's own configuration says of its jobs, joined with the rows once every file is
scanned (:mod:`.celery_config` finds the facts; plain data here, so a warm run needs no parser).

- A ``task_routes`` route gives its queue to a Celery job whose registration sets none (a task's
  own ``queue`` comes first, as Celery documents), and ``defaults`` says where the route is
  written: the value is the configuration's, not the registration's.
- A ``beat_schedule`` entry is a fact of its job, listed under ``options["beat_schedule"]``; an
  entry whose ``task`` names no Celery job of the tree is a located ``unregistered-task`` entry.
- ``send_task("name")`` naming no Celery job of the tree is one too.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..ledger.model import CONFIG_ORIGIN, Job, JSONValue, Pattern, Unsupported

_NOT_SET = "not set at registration"


@dataclass(frozen=True)
class CeleryFact:
    """``kind`` is ``route`` (``task`` is a name or a glob), ``beat`` or ``send``."""

    kind: str
    path: str
    line: int
    task: str
    data: Mapping[str, JSONValue] = field(default_factory=dict)

    @property
    def location(self) -> str:
        return f"{self.path}:{self.line}"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "path": self.path,
            "line": self.line,
            "task": self.task,
            "data": dict(self.data),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CeleryFact:
        return cls(data["kind"], data["path"], data["line"], data["task"], dict(data["data"]))


def task_name(job: Job) -> str:
    """The name Celery registers a job under: its ``name``, else ``module.function``."""
    return job.name or f"{job.module}.{job.function}"


def apply_celery_config(
    jobs: Sequence[Job], facts: Sequence[CeleryFact]
) -> tuple[list[Job], list[Unsupported]]:
    """The rows with their routes and beat entries, and the facts naming no job."""
    if not facts:
        return list(jobs), []
    celery = {task_name(job) for job in jobs if job.framework == "celery"}
    routes = sorted((f for f in facts if f.kind == "route"), key=lambda f: (f.path, f.line))
    beats: dict[str, list[CeleryFact]] = {}
    problems: list[Unsupported] = []
    for fact in facts:
        if fact.kind in ("beat", "send") and fact.task not in celery:
            what = (
                f"beat_schedule entry {fact.data.get('entry')!r}"
                if fact.kind == "beat"
                else "send_task"
            )
            problems.append(
                Unsupported(
                    fact.path,
                    fact.line,
                    Pattern.UNREGISTERED_TASK,
                    f"{what} names the task {fact.task!r}, which no Celery registration in the "
                    "scanned tree has\nA renamed or deleted task, or a typo: nothing would run "
                    "it. Name a registered task, or scan the tree that defines it; or accept it "
                    "here with '# jobledger: ignore[unregistered-task] -- why'",
                )
            )
        elif fact.kind == "beat":
            beats.setdefault(fact.task, []).append(fact)
    result: list[Job] = []
    for job in jobs:
        if job.framework == "celery":
            job = _routed(job, routes)
            entries = beats.get(task_name(job))
            if entries:
                listed: list[JSONValue] = [
                    {**entry.data, "at": entry.location} for entry in entries
                ]
                job = replace(job, options={**job.options, "beat_schedule": listed})
        result.append(job)
    return result, problems


def _routed(job: Job, routes: Sequence[CeleryFact]) -> Job:
    if job.queue is not None or job.unresolved.get("queue") != _NOT_SET:
        return job
    name = task_name(job)
    for route in routes:
        if route.task == name or fnmatch.fnmatchcase(name, route.task):
            queue = route.data.get("queue")
            if not isinstance(queue, str):
                continue
            unresolved = {k: v for k, v in job.unresolved.items() if k != "queue"}
            defaults = dict(
                sorted(
                    {
                        **job.defaults,
                        "queue": f"{CONFIG_ORIGIN}task_routes at {route.location}",
                    }.items()
                )
            )
            return replace(job, queue=queue, unresolved=unresolved, defaults=defaults)
    return job
