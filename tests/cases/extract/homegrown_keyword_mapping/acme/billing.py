"""The invoice flow."""

from acme.jobs import job
from acme import jobs


@job(queue="billing", attempts=5, soft_limit=120, audit=True)
def capture_invoice(invoice_id):
    """Charge a captured authorization."""


@jobs.job(queue="mail", attempts=8, soft_limit=30)
def send_receipt(invoice_id):
    """Email the receipt."""
