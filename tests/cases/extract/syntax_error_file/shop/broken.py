"""A legacy module nobody ported from Python 2."""

from celery import shared_task


@shared_task(queue="orders")
def refund_order(order_id):
    """Refund an order."""
    print "refunding", order_id
