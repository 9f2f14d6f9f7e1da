"""A job decorator that takes the queue and retries positionally."""


def job(queue, max_retries=3, *, soft_time_limit_s=60):
    """Declare a background job on ``queue``."""

    def register(fn):
        return fn

    return register
