"""The project's only job."""

from celery import shared_task


@shared_task(queue="billing")
def capture_invoice(invoice_id):
    """Charge a captured authorization."""
