"""Billing jobs sharing the module's queue and retry constants."""

from celery import shared_task

QUEUE = "billing"
MAX_RETRIES = 5
SOFT_LIMIT_S: int = 120


@shared_task(queue=QUEUE, max_retries=MAX_RETRIES, soft_time_limit=SOFT_LIMIT_S)
def capture_invoice(invoice_id):
    """Charge a captured authorization."""
