"""Whether a job's framework runs it again on its own: rerun facts read from a ledger row.

A signed ``idempotent: "no"`` is a promise about what happens when the job runs twice; the code
says whether it will. This module reads only the row's typed fields (``max_retries``,
``delivery``, ``options``, ``unresolved``), never source, so the gate, the verdict and the runbook
share one answer. One function per framework, each with the defaults its documentation gives:

- Celery: ``acks_late`` (the broker redelivers a message whose worker is lost mid-run) and
  ``reject_on_worker_lost`` (requeued when the worker process dies); ``autoretry_for`` retries
  up to ``max_retries`` (default 3). ``max_retries`` alone only bounds explicit ``self.retry()``
  calls: it counts only when the body calls retry (``delivery.calls_retry``).
- Dramatiq: the Retries middleware retries a failing actor up to 20 times unless
  ``max_retries=0``.
- Huey ``retries``, RQ ``Retry(max=N)`` (at registration or enqueue): N retries, none by default.
- taskiq: ``retry_on_error=True`` retries up to ``max_retries`` (``SimpleRetryMiddleware``'s
  default 3) when a retry middleware is installed on the broker.
- arq: ``max_tries`` (default 5 tries: 4 retries; a ``cron`` job 1 try).
- procrastinate: ``retry=N`` or a ``RetryStrategy`` (unset: not retried; ``retry=True``: forever).
- SAQ: ``retries`` counts attempts (default 1: no retry).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from .model import Job

#: The ``unresolved`` reason under which a framework's documented default applies.
NOT_SET = "not set at registration"

_CELERY = "https://docs.celeryq.dev/en/stable/userguide/tasks.html"
_DRAMATIQ = "https://dramatiq.io/reference.html#dramatiq.middleware.Retries"
_HUEY = "https://huey.readthedocs.io/en/latest/api.html#Huey.task"
_RQ = "https://python-rq.org/docs/exceptions/#retrying-failed-jobs"
_TASKIQ = "https://taskiq-python.github.io/available-components/middlewares.html"
_ARQ = "https://arq-docs.helpmanual.io/#arq.worker.Worker"
_PROCRASTINATE = "https://procrastinate.readthedocs.io/en/stable/howto/advanced/retry.html"
_SAQ = "https://saq-py.readthedocs.io/en/latest/"


@dataclass(frozen=True)
class Rerun:
    """One way the framework runs the job again: ``redelivered`` (the same message again after
    a lost worker) or ``retried`` (``times``: at most that many more runs; ``None``: no bound
    the code proves). ``because`` names the code (or the documented default) that says so."""

    how: str
    because: str
    url: str
    times: int | None = None

    @property
    def text(self) -> str:
        """The fact in a few words: ``retried up to 20 times by the framework (...)``."""
        if self.how == "redelivered":
            return f"redelivered on worker loss ({self.because})"
        if self.times is None:
            return f"retried by the framework with no proven bound ({self.because})"
        plural = "time" if self.times == 1 else "times"
        return f"retried up to {self.times} {plural} by the framework ({self.because})"


def reruns(job: Job) -> tuple[Rerun, ...]:
    """Every way the job's framework runs it again, from its row; empty: it runs once."""
    reader = _BY_FRAMEWORK.get(job.framework)
    return tuple(reader(job)) if reader is not None else ()


def delivery_fact(job: Job) -> str:
    """The runbook's one-line delivery fact: at-least-once and how, or at most once."""
    found = reruns(job)
    if not found:
        note = explicit_retry_only(job)
        return "at most once by the framework" + (f" ({note})" if note else "")
    return "at-least-once: " + "; ".join(rerun.text for rerun in found)


def explicit_retry_only(job: Job) -> str | None:
    """Celery's ``max_retries`` with no automatic retry and no ``self.retry()`` in the body: why
    it is not a rerun, in words (``None`` for any other row)."""
    if job.framework != "celery" or not job.max_retries or reruns(job):
        return None
    return (
        f"max_retries={job.max_retries} only bounds explicit self.retry() calls, and the body "
        "makes none"
    )


def _count(job: Job, default: int) -> tuple[int | None, str] | None:
    """``max_retries`` as (retries, where it comes from); ``None``: proven zero."""
    if job.max_retries is not None:
        return (job.max_retries, f"max_retries={job.max_retries}") if job.max_retries else None
    reason = job.unresolved.get("max_retries", NOT_SET)
    if reason == NOT_SET:
        return (default, f"the documented default of {default}") if default else None
    if reason.startswith(NOT_SET):
        return None  # unset, and the reason names a default of no retry (arq's cron)
    return None, f"max_retries not proven: {reason}"


def _retried(job: Job, default: int, url: str, prefix: str = "") -> Iterator[Rerun]:
    found = _count(job, default)
    if found is not None:
        times, because = found
        yield Rerun("retried", prefix + because, url, times)


def _celery(job: Job) -> Iterator[Rerun]:
    if job.delivery.get("acks_late") is True:
        yield Rerun("redelivered", "acks_late=True", f"{_CELERY}#Task.acks_late")
    if job.delivery.get("reject_on_worker_lost") is True:
        yield Rerun(
            "redelivered", "reject_on_worker_lost=True", f"{_CELERY}#Task.reject_on_worker_lost"
        )
    if job.delivery.get("autoretry_for"):
        automatic = f"{_CELERY}#automatic-retry-for-known-exceptions"
        yield from _retried(job, 3, automatic, "autoretry_for, ")
    elif job.delivery.get("calls_retry") is True:
        yield from _retried(job, 3, f"{_CELERY}#retrying", "the body calls self.retry(), ")


def _dramatiq(job: Job) -> Iterator[Rerun]:
    yield from _retried(job, 20, _DRAMATIQ)


def _none_by_default(url: str) -> Callable[[Job], Iterator[Rerun]]:
    def read(job: Job) -> Iterator[Rerun]:
        yield from _retried(job, 0, url)

    return read


def _taskiq(job: Job) -> Iterator[Rerun]:
    if job.options.get("retry_on_error") is True:
        yield from _retried(job, 3, _TASKIQ, "retry_on_error=True, ")


def _arq(job: Job) -> Iterator[Rerun]:
    yield from _retried(job, 4, _ARQ)


def _procrastinate(job: Job) -> Iterator[Rerun]:
    yield from _retried(job, 0, _PROCRASTINATE)


def _saq(job: Job) -> Iterator[Rerun]:
    attempts = job.options.get("retries")
    if isinstance(attempts, int) and not isinstance(attempts, bool) and attempts > 1:
        yield Rerun("retried", f"retries={attempts} attempts", _SAQ, attempts - 1)


_BY_FRAMEWORK: Mapping[str, Callable[[Job], Iterator[Rerun]]] = {
    "celery": _celery,
    "dramatiq": _dramatiq,
    "huey": _none_by_default(_HUEY),
    "rq": _none_by_default(_RQ),
    "taskiq": _taskiq,
    "arq": _arq,
    "procrastinate": _procrastinate,
    "saq": _saq,
}
