"""Shared retry policy for billing tasks."""

from celery import Task


class BillingTask(Task):
    """Retries provider timeouts a few times, thirty seconds apart."""

    autoretry_for = (TimeoutError,)
    max_retries = 5
    default_retry_delay = 30
    acks_late = True


class SlowBillingTask(BillingTask):
    soft_time_limit = 600
