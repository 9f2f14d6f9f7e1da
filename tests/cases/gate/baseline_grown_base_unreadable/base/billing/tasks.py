"""Invoice jobs."""

from celery import shared_task


@shared_task(queue="billing", max_retries=5)
def capture_invoice(invoice_id):
    """Charge a captured authorization."""


@shared_task(queue="mail")
def send_receipt(invoice_id):
    """Email the receipt."""
