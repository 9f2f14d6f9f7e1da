"""Orders."""

from celery import shared_task


@shared_task(queue='orders')
def cancel_unpaid_order(order_id):
    """Cancel an order whose payment never arrived."""
