"""The house job decorator, with a fallback when the queue library is missing."""

try:
    from acme_queue import job
except ImportError:

    def job(queue="default"):
        def register(fn):
            return fn

        return register
