"""A data migration that defines a one-off task; excluded by the configured glob."""

from celery import shared_task


@shared_task(queue="billing")
def backfill_invoice_numbers():
    """Give old invoices their sequential numbers."""
