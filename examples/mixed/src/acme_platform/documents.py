"""Document rendering on RQ, kept from the service this platform absorbed."""

from rq import Retry
from rq.decorators import job


@job("documents", timeout="2m", retry=Retry(max=2, interval=15))
def render_invoice_pdf(invoice_id: int) -> str:
    """Render an invoice to PDF and return its storage key."""
    raise NotImplementedError
