"""Django's Tasks framework (``django.tasks``, Django 6.0+) and its backport ``django_tasks``:
``@task`` and ``@task(priority=..., queue_name=..., backend=..., takes_context=...)``.

Documented at https://docs.djangoproject.com/en/6.0/ref/tasks/ : ``queue_name`` defaults to
``"default"``; the framework defines no retries and no time limits (a backend may add its own, set
in ``TASKS`` settings, not at the registration), so those fields are not applicable.
"""

from __future__ import annotations

from .rules import FieldRule, Framework, Rules

TASK = Rules(
    framework="django-tasks",
    fields=(FieldRule("queue", keywords=("queue_name",)),),
    fn_first=True,
    positional_names=("function",),
    not_applicable={
        "name": "Django Tasks names a task by its import path; there is no registered name",
        "max_retries": "Django Tasks has no retries in the framework (a backend may add them)",
        "retry_delay_s": "Django Tasks has no retries in the framework (a backend may add them)",
        "soft_time_limit_s": "Django Tasks has no time limits in the framework",
        "time_limit_s": "Django Tasks has no time limits in the framework",
    },
)

DJANGO_TASKS = Framework(
    name="django-tasks",
    decorators={"django.tasks.task": TASK, "django_tasks.task": TASK},
    canonical={
        "django.tasks.base.task": "django.tasks.task",
        "django_tasks.base.task": "django_tasks.task",
    },
)
