"""Jobs relying on the decorator's defaults."""

from acme.jobs import job


@job()
def rebuild_search_index():
    """Rebuild the product search index."""


@job(queue="mail", soft_time_limit_s=30)
def send_receipt(invoice_id):
    """Email the receipt."""


OVERRIDES = {"max_retries": 10}


@job(queue="billing", **OVERRIDES)
def capture_invoice(invoice_id):
    """Charge a captured authorization."""
