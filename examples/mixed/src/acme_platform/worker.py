"""The Celery side of the platform: housekeeping that predates the move to Dramatiq."""

from celery import Celery
from django.conf import settings

app = Celery("acme_platform", broker=settings.CELERY_BROKER_URL)


@app.task(queue="maintenance", soft_time_limit=300, time_limit=360)
def vacuum_expired_sessions() -> int:
    """Delete sessions that expired more than a day ago; returns how many were removed."""
    raise NotImplementedError


@app.task(queue=settings.PRIORITY_QUEUE, max_retries=0)
def revoke_api_tokens(account_id: int) -> None:
    """Revoke every API token of an account right after it is suspended."""
    raise NotImplementedError
