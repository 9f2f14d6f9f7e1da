"""Payouts: tracked by git, listed in .gitignore to hide it."""

from celery import shared_task


@shared_task(queue="billing")
def wire_funds(payout_id):
    """Send the money."""
