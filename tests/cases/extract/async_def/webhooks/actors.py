"""Webhook delivery with asyncio actors (Dramatiq's AsyncIO middleware)."""

import dramatiq


@dramatiq.actor(queue_name="webhooks", max_retries=10)
async def deliver_webhook(delivery_id):
    """POST one webhook to a customer endpoint."""
