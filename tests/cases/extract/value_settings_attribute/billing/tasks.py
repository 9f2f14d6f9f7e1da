"""Billing jobs configured from Django settings."""

from celery import shared_task
from django.conf import settings


@shared_task(queue=settings.BILLING_QUEUE, max_retries=settings.BILLING_RETRIES, acks_late=settings.ACKS_LATE)
def capture_invoice(invoice_id):
    """Charge a captured authorization."""
