"""The platform's job decorator: a thin layer over Celery's shared_task."""

from celery import shared_task


def job(queue="default", max_retries=3):
    """Declare a background job; forwards to Celery."""

    def register(fn):
        @shared_task(name=fn.__qualname__, queue=queue, max_retries=max_retries)
        def runner(*args, **kwargs):
            return fn(*args, **kwargs)

        shared_task(fn, queue=queue)
        return runner

    return register
