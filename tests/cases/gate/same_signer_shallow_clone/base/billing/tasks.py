"""Billing jobs."""

from celery import shared_task


@shared_task(queue="billing")
def capture_invoice(invoice_id):
    """Charge a captured authorization."""


@shared_task(queue="mail")
def send_receipt(invoice_id):
    """Email the receipt."""
