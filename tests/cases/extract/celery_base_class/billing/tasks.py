from celery import shared_task

from billing.base import BillingTask, SlowBillingTask


@shared_task(base=BillingTask, queue="billing")
def capture_invoice(invoice_id):
    """Charge a captured authorization."""


@shared_task(base=SlowBillingTask, queue="billing", max_retries=1)
def reconcile_month(month):
    """Reconcile a month of provider statements."""
