"""Billing jobs, defined in the package's __init__.py."""

from celery import shared_task


@shared_task(queue="billing")
def capture_invoice(invoice_id):
    """Charge a captured authorization."""
