"""Billing jobs importing their constants."""

from celery import shared_task

from billing.constants import BILLING_QUEUE
from .constants import CAPTURE_RETRIES as RETRIES


@shared_task(queue=BILLING_QUEUE, max_retries=RETRIES)
def capture_invoice(invoice_id):
    """Charge a captured authorization."""
