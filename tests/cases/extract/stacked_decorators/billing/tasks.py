"""Jobs whose registration is not the outermost decorator."""

import functools

import dramatiq
from celery import shared_task

from billing.tracing import traced


def log_calls(fn):
    """Log every call of the wrapped function."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


@log_calls
@shared_task(queue="billing", max_retries=5)
@traced("capture")
def capture_invoice(invoice_id):
    """Charge a captured authorization."""


@traced("settle")
@log_calls
@dramatiq.actor(queue_name="settlements")
def settle_batch(batch_id):
    """Settle one batch of captures with the acquirer."""
