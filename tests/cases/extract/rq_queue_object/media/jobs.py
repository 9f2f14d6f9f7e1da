"""Housekeeping on a Queue object rather than a queue name."""

from redis import Redis
from rq import Queue
from rq.decorators import job

low = Queue("low", connection=Redis())


@job(low, timeout=3600)
def purge_orphaned_renditions():
    """Delete renditions whose source asset is gone."""
