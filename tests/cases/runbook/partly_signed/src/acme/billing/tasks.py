"""The two jobs of the invoice flow: capture the money, then tell the customer."""

from acme.jobs import job


@job(queue="billing", max_retries=5, soft_time_limit_s=120)
def capture_invoice(invoice_id: str) -> None:
    """Charge a captured authorization and write a ledger row."""
    raise NotImplementedError


@job(queue="mail", max_retries=8, soft_time_limit_s=30)
def send_receipt(invoice_id: str) -> None:
    """Email the receipt once the invoice has been captured."""
    raise NotImplementedError


@job(queue="billing", max_retries=3)
def refund_invoice(invoice_id: str) -> None:
    """Refund a captured invoice in full and write the credit note."""
    raise NotImplementedError
