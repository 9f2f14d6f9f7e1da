"""Invoice jobs."""

from celery import shared_task

from billing import settings


# The provider's capture endpoint is flaky: retry longer, on the shared queue.
@shared_task(queue="default", max_retries=20, acks_late=True, time_limit=settings.CAPTURE_LIMIT)
def capture_invoice(invoice_id):
    """Charge a captured authorization."""


@shared_task(queue="mail", max_retries=3)
def send_receipt(invoice_id):
    """Email the receipt."""


# Moved below a new comment: the same job, on other lines.


@shared_task(queue="reports")
def nightly_report():
    """Build the nightly report."""
