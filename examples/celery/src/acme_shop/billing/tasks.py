"""Billing jobs. Every job here talks to the payment provider, so each one runs on the billing queue."""

from celery import Task

from acme_shop.celery_app import app

from .gateway import PaymentGateway

QUEUE = "billing"


@app.task(bind=True, queue=QUEUE, max_retries=5, soft_time_limit=120)
def capture_invoice(self: Task, invoice_id: str) -> None:
    """Charge a captured authorization and write a ledger row."""
    # Acknowledged early on purpose: a late ack would redeliver the capture when a worker dies
    # and charge the card twice. A capture lost with its worker is found by ReconcileSettlements.
    PaymentGateway().capture(invoice_id)


@app.task
def void_authorization(authorization_id: str) -> None:
    """Release a card authorization that was never captured."""
    PaymentGateway().void(authorization_id)


def refund_payment(payment_id: str, amount_cents: int) -> None:
    """Send a (partial) refund to the provider and record the credit note."""
    PaymentGateway().refund(payment_id, amount_cents)


refund_payment_task = app.task(refund_payment, queue=QUEUE, max_retries=3, default_retry_delay=60)


class ReconcileSettlements(Task):
    """Match yesterday's provider settlement report against our ledger rows."""

    name = "billing.reconcile_settlements"
    queue = "billing"
    max_retries = 2
    soft_time_limit = 900

    def run(self, day: str) -> None:
        PaymentGateway().reconcile(day)


app.register_task(ReconcileSettlements())
