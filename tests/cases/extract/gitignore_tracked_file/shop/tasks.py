"""Shop jobs."""

from celery import shared_task


@shared_task(queue="mail")
def send_receipt(order_id):
    """Mail the receipt."""
