"""The shop's jobs."""

from shop.celery_app import app


@app.task(max_retries=3)
def capture_invoice(invoice_id: int) -> None:
    """Capture the payment of an invoice."""


@app.task(queue="mail")
def send_receipt(invoice_id: int) -> None:
    """Email the receipt of a captured invoice."""
