"""The frameworks' documented defaults: the one table the runbook takes them from.

A ledger value that the registration does not set is ``null`` ("not set at registration"); the
page may then show what the framework documents as its default, always labelled as a default
that the app's own configuration can override, and always with the page it is documented on.
Nothing here is ever written into the ledger or compared by the gate.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The ``unresolved`` reason under which a documented default may be shown.
NOT_SET = "not set at registration"

Number = int | float


@dataclass(frozen=True)
class FrameworkDefault:
    """One documented default: ``value`` in the ledger's unit (``None``: no limit at all; text
    for a queue)."""

    framework: str
    field: str
    value: Number | str | None
    setting: str
    url: str

    @property
    def label(self) -> str:
        """The framework's name as its documentation spells it."""
        return FRAMEWORK_NAMES.get(self.framework, self.framework)

    def to_json(self) -> dict[str, object]:
        return {
            "framework": self.framework,
            "field": self.field,
            "value": self.value,
            "setting": self.setting,
            "url": self.url,
        }


FRAMEWORK_NAMES = {
    "celery": "Celery",
    "rq": "RQ",
    "dramatiq": "Dramatiq",
    "huey": "Huey",
    "django-tasks": "Django Tasks",
    "taskiq": "taskiq",
    "procrastinate": "Procrastinate",
    "arq": "arq",
    "saq": "SAQ",
}

_CELERY_TASKS = "https://docs.celeryq.dev/en/stable/userguide/tasks.html"
_CELERY_CONFIG = "https://docs.celeryq.dev/en/stable/userguide/configuration.html"
_DRAMATIQ = "https://dramatiq.io/reference.html"
_DJANGO_TASKS = "https://docs.djangoproject.com/en/6.0/ref/tasks/#django.tasks.task"
_PROCRASTINATE = "https://procrastinate.readthedocs.io/en/stable"
#: arq's Worker: ``queue_name="arq:queue"``, ``max_tries=5`` (tries: 4 retries),
#: ``job_timeout=300``.
_ARQ_WORKER = "https://arq-docs.helpmanual.io/#arq.worker.Worker"

DEFAULTS: tuple[FrameworkDefault, ...] = (
    FrameworkDefault(
        "celery", "max_retries", 3, "Task.max_retries", f"{_CELERY_TASKS}#Task.max_retries"
    ),
    FrameworkDefault(
        "celery",
        "retry_delay_s",
        180,
        "Task.default_retry_delay",
        f"{_CELERY_TASKS}#Task.default_retry_delay",
    ),
    FrameworkDefault(
        "celery",
        "soft_time_limit_s",
        None,
        "task_soft_time_limit",
        f"{_CELERY_CONFIG}#task-soft-time-limit",
    ),
    FrameworkDefault(
        "celery", "time_limit_s", None, "task_time_limit", f"{_CELERY_CONFIG}#task-time-limit"
    ),
    FrameworkDefault(
        "dramatiq",
        "max_retries",
        20,
        "Retries(max_retries=20)",
        f"{_DRAMATIQ}#dramatiq.middleware.Retries",
    ),
    FrameworkDefault(
        "dramatiq",
        "time_limit_s",
        600,
        "TimeLimit(time_limit=600000) ms",
        f"{_DRAMATIQ}#dramatiq.middleware.TimeLimit",
    ),
    FrameworkDefault(
        "rq",
        "time_limit_s",
        180,
        "job_timeout",
        "https://python-rq.org/docs/results/#dealing-with-job-timeouts",
    ),
    FrameworkDefault(
        "huey",
        "max_retries",
        0,
        "retries",
        "https://huey.readthedocs.io/en/latest/api.html#Huey.task",
    ),
    FrameworkDefault("django-tasks", "queue", "default", "queue_name", _DJANGO_TASKS),
    FrameworkDefault(
        "procrastinate", "queue", "default", "queue", f"{_PROCRASTINATE}/reference.html"
    ),
    FrameworkDefault(
        "procrastinate",
        "max_retries",
        0,
        "retry (unset: not retried)",
        f"{_PROCRASTINATE}/howto/advanced/retry.html",
    ),
    FrameworkDefault("arq", "queue", "arq:queue", "Worker.queue_name", _ARQ_WORKER),
    FrameworkDefault("arq", "max_retries", 4, "Worker.max_tries = 5 tries", _ARQ_WORKER),
    FrameworkDefault("arq", "time_limit_s", 300, "Worker.job_timeout", _ARQ_WORKER),
)

_BY_KEY = {(row.framework, row.field): row for row in DEFAULTS}


def documented_default(framework: str, field: str, reason: str | None) -> FrameworkDefault | None:
    """The default to show for a ``null`` field, or ``None``: only when the registration did not
    set the field at all (a value that is set but not provable shows its reason, never a
    default)."""
    if reason != NOT_SET:
        return None
    return _BY_KEY.get((framework, field))
