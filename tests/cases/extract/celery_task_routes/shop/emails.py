"""Email jobs."""

from shop.celery_app import app


@app.task
def send_receipt(invoice_id):
    """Email the receipt of a captured invoice."""


@app.task
def send_newsletter(issue_id):
    """Email one newsletter issue (no route, no queue)."""
