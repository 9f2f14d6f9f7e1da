"""Modules import the app from the package, as Python binds it."""

from acme.celery import app
import acme.celery.app as celery_app


@app.task(queue="billing", max_retries=5)
def charge_card(invoice_id):
    """Charge the card on file."""


@celery_app.task(queue="mail")
def send_receipt(invoice_id):
    """Email the receipt."""
