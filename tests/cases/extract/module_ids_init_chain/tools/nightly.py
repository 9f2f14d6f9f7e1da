"""A stand-alone worker module in a folder that is not a package."""

from celery import shared_task


@shared_task(queue="nightly")
def compact_event_log():
    """Compact yesterday's event log."""
