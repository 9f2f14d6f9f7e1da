"""Report jobs whose limits are written as arithmetic."""

import dramatiq
from celery import shared_task

MINUTE = 60
HARD_LIMIT_S = 15 * MINUTE


@shared_task(soft_time_limit=60 * 5, time_limit=HARD_LIMIT_S + 30, default_retry_delay=60 - 15)
def build_sales_report(month):
    """Aggregate a month of orders."""


@dramatiq.actor(time_limit=10 * 60 * 1000, max_retries=(1 + 2))
def build_stock_report(day):
    """Summarise stock movements of a day."""
