"""Jobs registered through the undeclared wrapper: not listed, and reported at the wrapper."""

from acme.jobs import background


@background(queue="billing")
def capture_invoice(invoice_id):
    """Charge a captured authorization."""
