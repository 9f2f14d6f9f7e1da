"""A job decorator whose limits are in milliseconds, like the rest of this codebase."""


def job(queue, timeout_ms, warn_after_ms):
    """Declare a background job with a hard and a soft limit in milliseconds."""

    def register(fn):
        return fn

    return register
