"""A module where a job was pasted twice; the second definition shadows the first at runtime."""

from celery import shared_task


@shared_task(queue="mail")
def send_digest(user_id):
    """Send the daily digest."""


@shared_task(queue="mail-bulk")
def send_digest(user_id):
    """Send the weekly digest."""
