"""Huey's retry-with-backoff recipe: a declared decorator whose body ends in the call form."""

import functools

from huey import RedisHuey

huey = RedisHuey("app")


def task_with_backoff(retries=3, retry_backoff=1.15, retry_delay=1):
    def deco(fn):
        @functools.wraps(fn)
        def inner(*args, task=None, **kwargs):
            try:
                return fn(*args, **kwargs)
            except Exception:
                task.retry_delay *= retry_backoff
                raise

        return huey.task(retries=retries, retry_delay=retry_delay, context=True)(inner)

    return deco
