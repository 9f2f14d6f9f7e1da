"""Jobs declared with positional arguments."""

from acme.queueing import job


@job("billing", 5, soft_time_limit_s=120)
def capture_invoice(invoice_id):
    """Charge a captured authorization."""


@job("mail")
def send_receipt(invoice_id):
    """Email the receipt."""
