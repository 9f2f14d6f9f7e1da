"""Invoice jobs: one signed, one half signed, one with a typo, one stubbed, two new."""

from celery import shared_task


@shared_task(queue="billing", max_retries=5)
def capture_invoice(invoice_id):
    """Charge a captured authorization."""


@shared_task(queue="billing")
def refund_invoice(invoice_id):
    """Refund a captured invoice."""


@shared_task(queue="mail")
def send_receipt(invoice_id):
    """Email the receipt."""


@shared_task(queue="mail")
def send_reminder(invoice_id):
    """Email a payment reminder."""


@shared_task(queue="reports")
def build_statement(account_id):
    """Build the monthly statement."""


@shared_task(queue="billing")
def close_account(account_id):
    """Close a customer's billing account."""
