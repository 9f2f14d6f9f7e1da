"""Digests, pasted twice."""

from celery import shared_task


@shared_task(queue="mail")
def send_digest(user_id):
    """Send the daily digest."""


@shared_task(queue="mail-bulk")
def send_digest(user_id):
    """Send the weekly digest."""
