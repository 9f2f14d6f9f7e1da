"""setuptools' copy of an old module: build output, never imported from here."""

from celery import shared_task


@shared_task(queue="stale")
def stale_copy():
    """An outdated copy."""
