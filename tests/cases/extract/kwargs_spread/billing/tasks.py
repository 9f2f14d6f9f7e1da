"""Billing jobs sharing a dict of task options."""

from celery import shared_task

TASK_OPTIONS = {"max_retries": 5, "soft_time_limit": 120, "acks_late": True}


@shared_task(queue="billing", **TASK_OPTIONS)
def capture_invoice(invoice_id):
    """Charge a captured authorization."""
