"""Constants that are assigned more than once cannot be proved."""

import os

from celery import shared_task

QUEUE = "billing"
RETRIES = 3
if os.environ.get("BILLING_PRIORITY"):
    QUEUE = "billing-priority"
RETRIES += 2
SOFT_LIMIT_S = 120


def tune():
    global SOFT_LIMIT_S
    SOFT_LIMIT_S = 60


@shared_task(queue=QUEUE, max_retries=RETRIES, soft_time_limit=SOFT_LIMIT_S)
def capture_invoice(invoice_id):
    """Charge a captured authorization."""
