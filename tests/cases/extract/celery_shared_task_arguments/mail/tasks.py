"""Transactional email."""

from celery import shared_task


@shared_task(queue="mail", max_retries=8, soft_time_limit=30, ignore_result=True)
def send_receipt(invoice_id):
    """Email the receipt for a captured invoice."""
