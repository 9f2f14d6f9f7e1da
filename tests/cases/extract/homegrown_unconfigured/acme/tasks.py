"""Jobs behind an unconfigured decorator."""

from acme.jobs import job


@job(queue="billing", max_retries=5)
def capture_invoice(invoice_id):
    """Charge a captured authorization."""
