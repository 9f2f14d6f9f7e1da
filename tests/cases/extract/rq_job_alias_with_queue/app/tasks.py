"""An RQ decorator bound with its queue as a module-level alias."""

from redis import Redis
from rq.decorators import job

low = job("low", connection=Redis(), timeout=60)


@low
def resize_images():
    """Resize the uploaded images."""
