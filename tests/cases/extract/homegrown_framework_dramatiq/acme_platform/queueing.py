"""The platform's actor: dramatiq.actor with a house default queue."""

import dramatiq


def actor(queue_name="default", **options):
    """Register the decorated function as a Dramatiq actor."""

    def register(fn):
        return dramatiq.actor(fn, queue_name=queue_name, **options)

    return register
