"""Webhook tasks on taskiq (retried only with retry_on_error=True)."""

from taskiq import InMemoryBroker

broker = InMemoryBroker()


@broker.task(retry_on_error=True)
async def deliver_webhook(delivery_id):
    """Deliver a webhook."""


@broker.task(retry_on_error=False, max_retries=5)
async def log_delivery(delivery_id):
    """Log a delivery (retry_on_error=False: runs once)."""
