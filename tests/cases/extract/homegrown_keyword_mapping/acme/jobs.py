"""The team's own job decorator; it keeps job settings in a registry."""

REGISTRY = {}


def job(queue, attempts, soft_limit):
    """Declare a background job."""

    def register(fn):
        REGISTRY[fn.__name__] = (queue, attempts, soft_limit)
        return fn

    return register
