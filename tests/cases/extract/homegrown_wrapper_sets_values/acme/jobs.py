"""The team's wrappers over Celery: each sets some options itself."""

from celery import shared_task

SLOW = "slow"


def notify(channel, **kwargs):
    """A notification job on the channel's own queue."""

    def deco(fn):
        return shared_task(queue=f"notify-{channel}", max_retries=3, **kwargs)(fn)

    return deco


def report(**kwargs):
    """A report job: always on the reports queue, with a long soft limit."""

    def deco(fn):
        @shared_task(queue="reports", soft_time_limit=600, acks_late=True, **kwargs)
        def runner(*args, **inner):
            return fn(*args, **inner)

        return runner

    return deco


def slow(queue="bulk", **kwargs):
    """Hands its own queue parameter on; the time limit comes from a module constant."""

    def deco(fn):
        return shared_task(fn, queue=queue, time_limit=LIMITS[SLOW], **kwargs)

    return deco


LIMITS = {"slow": 3600}
