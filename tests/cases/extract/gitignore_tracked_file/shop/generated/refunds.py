"""A tracked module in an ignored folder."""

from celery import shared_task


@shared_task(queue="billing")
def refund(order_id):
    """Give the money back."""
