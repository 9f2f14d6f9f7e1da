"""Webhook delivery on RQ with retries."""

from rq import Retry
from rq.decorators import job


@job("webhooks", retry=Retry(max=3, interval=60))
def deliver_webhook(delivery_id):
    """POST one webhook to a customer endpoint."""
