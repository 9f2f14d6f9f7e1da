"""The team's job decorator, not declared in [tool.jobledger.decorators]."""

from celery import shared_task


def background(queue="default"):
    """Register the decorated function as a Celery job on ``queue``."""

    def register(fn):
        return shared_task(fn, queue=queue)

    return register
