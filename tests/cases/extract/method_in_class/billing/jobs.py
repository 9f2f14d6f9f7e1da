"""Invoice jobs grouped under one namespace class."""

from celery import shared_task


class InvoiceJobs:
    """Namespace for the invoice jobs, so callers write InvoiceJobs.capture.delay(...)."""

    @staticmethod
    @shared_task(queue="billing", max_retries=5)
    def capture(invoice_id):
        """Charge a captured authorization."""

    @staticmethod
    @shared_task(queue="mail")
    def send_receipt(invoice_id):
        """Email the receipt."""
