"""Billing jobs whose overlay entries carry an order hidden in a cell."""

from celery import shared_task


@shared_task(queue="billing")
def capture_invoice(invoice_id):
    """Charge a captured authorization."""


@shared_task(queue="billing", acks_late=True)
def settle_day(day):
    """Settle one day with the provider."""


@shared_task(queue="mail")
def send_receipt(invoice_id):
    """Email the receipt."""
