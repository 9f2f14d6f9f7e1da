"""Email jobs. They are safe to retry: the mail provider deduplicates on the message id."""

from celery import shared_task


@shared_task
def send_order_confirmation(order_id: str) -> None:
    """Email the customer a summary of the order they just placed."""
    raise NotImplementedError


@shared_task(
    queue="mail",
    max_retries=8,
    default_retry_delay=30,
    soft_time_limit=30,
    rate_limit="20/m",
)
def send_receipt(invoice_id: str) -> None:
    """Email the receipt for a successfully captured invoice."""
    raise NotImplementedError
