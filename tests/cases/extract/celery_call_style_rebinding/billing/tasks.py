"""Jobs registered the way Celery's docs show it: the function's own name rebound to the task."""

from celery import Celery, shared_task

app = Celery("billing")


def refund_payment(payment_id, amount_cents):
    """Send a refund to the provider."""


refund_payment = app.task(refund_payment, queue="billing", max_retries=3)


def expire_refund_links():
    """Invalidate refund links older than a week."""


expire_refund_links = shared_task(expire_refund_links)


def send_receipt(order_id):
    """Email the receipt."""


send_receipt = app.task(queue="mail")(send_receipt)
