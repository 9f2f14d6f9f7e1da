"""Jobs behind the configured decorator."""

from acme.jobs import job


@job(queue="billing")
def capture_invoice(invoice_id):
    """Charge a captured authorization."""
