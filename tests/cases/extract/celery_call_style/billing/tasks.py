"""Refund jobs, registered by calling the decorator on functions defined above."""

from celery import Celery, shared_task

app = Celery("billing")


def refund_payment(payment_id, amount_cents):
    """Send a refund to the provider."""


def expire_refund_links():
    """Invalidate refund links older than a week."""


refund_payment_task = app.task(refund_payment, queue="billing", max_retries=3)
shared_task(expire_refund_links)
