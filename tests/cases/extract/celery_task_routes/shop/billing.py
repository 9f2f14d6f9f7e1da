"""Billing jobs: their queue comes from task_routes."""

from shop.celery_app import app


@app.task(max_retries=5)
def capture_invoice(invoice_id):
    """Charge a captured authorization."""


@app.task(queue="priority")
def refund_payment(payment_id):
    """Refund one payment (its own queue comes before the route)."""
