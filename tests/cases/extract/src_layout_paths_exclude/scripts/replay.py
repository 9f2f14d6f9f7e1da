"""An ops script outside the configured paths; it is not scanned."""

from celery import shared_task


@shared_task
def replay_failed_captures():
    """Replay yesterday's failed captures."""
