"""Payment jobs whose delivery is tuned at registration."""

from celery import shared_task
from requests.exceptions import ConnectionError, Timeout

from payments.errors import GatewayBusy


@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(ConnectionError, Timeout, GatewayBusy),
    retry_backoff=5,
    retry_jitter=False,
    rate_limit="20/m",
    expires=900,
)
def settle_payment(payment_id):
    """Settle one authorized payment with the gateway."""


@shared_task(acks_late="yes", retry_backoff=True)
def refund_payment(payment_id):
    """Refund one payment."""
