"""Payment capture."""

from celery import Celery

app = Celery("billing")


@app.task(
    name="billing.capture_invoice",
    queue="billing",
    max_retries=5,
    default_retry_delay=30,
    soft_time_limit=120,
    time_limit=150,
    acks_late=True,
    rate_limit="10/m",
)
def capture_invoice(invoice_id):
    """Charge a captured authorization."""
