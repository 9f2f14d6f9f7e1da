"""``@job``: the one way Acme code declares a background job.

The decorator records each job's settings in :data:`REGISTRY`, which the admin's "jobs" page lists,
and hands the function to Celery with the same settings, so the two can never disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from celery import shared_task

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class JobSettings:
    """What the admin page shows for one job."""

    queue: str
    max_retries: int
    soft_time_limit_s: int | None


REGISTRY: dict[str, JobSettings] = {}


def job(
    queue: str = "default", max_retries: int = 3, soft_time_limit_s: int | None = None
) -> Callable[[F], F]:
    """Declare the decorated function a background job on ``queue``.

    ``soft_time_limit_s`` is passed to Celery as ``soft_time_limit``: the worker raises inside the
    job when it is reached, so the job can clean up before the hard limit kills it.
    """

    def register(fn: F) -> F:
        key = f"{fn.__module__}.{fn.__qualname__}"
        REGISTRY[key] = JobSettings(queue, max_retries, soft_time_limit_s)
        return shared_task(  # type: ignore[no-any-return]
            fn,
            name=key,
            queue=queue,
            max_retries=max_retries,
            soft_time_limit=soft_time_limit_s,
        )

    return register
