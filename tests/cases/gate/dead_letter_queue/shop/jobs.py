"""Jobs whose poison policy names a dead-letter queue."""

import dramatiq
from celery import shared_task


@shared_task(queue="billing")
def capture_invoice(invoice_id):
    """Charge a captured authorization."""


@shared_task(queue="billing")
def refund_payment(payment_id):
    """Refund a payment."""


@shared_task(queue="payments")
def settle_payment(payment_id):
    """Settle a payment."""


@dramatiq.actor(queue_name="ingest", max_retries=0)
def ingest_batch(batch_key):
    """Load a batch of events."""
