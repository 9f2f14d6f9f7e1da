"""Billing jobs on Celery: every way the framework runs a task again, and the ways it does not."""

from celery import Celery

app = Celery("billing")


@app.task(bind=True, max_retries=5, acks_late=True)
def capture_invoice(self, invoice_id):
    """Charge a captured authorization (late ack: redelivered when a worker dies)."""


@app.task(reject_on_worker_lost=True)
def issue_credit_note(invoice_id):
    """Write a credit note."""


@app.task(autoretry_for=(ConnectionError,))
def refund_payment(payment_id):
    """Refund a payment (automatic retry, Celery's default of 3)."""


@app.task(bind=True, max_retries=2)
def notify_provider(self, payment_id):
    """Tell the provider; a busy provider is retried from the body."""
    try:
        send(payment_id)
    except ConnectionError as exc:
        raise self.retry(exc=exc)


@app.task(max_retries=5)
def void_authorization(authorization_id):
    """Release an authorization: max_retries alone, nothing calls retry (runs once)."""


@app.task(acks_late=True)
def settle_day(day):
    """Settle a day (late ack, but a signed dedupe guard)."""


@app.task(acks_late=True)
def email_receipt(invoice_id):
    """Email the receipt (idempotent yes, business effect no)."""


@app.task(autoretry_for=(ConnectionError,), max_retries=0)
def charge_once(invoice_id):
    """autoretry_for with max_retries=0 retries nothing."""


def send(item):
    return item
