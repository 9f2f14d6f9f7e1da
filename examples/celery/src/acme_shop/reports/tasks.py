"""Report jobs. The queue comes from Django settings, so the ledger cannot prove it."""

from celery import shared_task as task
from django.conf import settings


@task(queue=settings.REPORTS_QUEUE, soft_time_limit=60 * 10, time_limit=60 * 15)
def build_sales_report(month: str) -> None:
    """Aggregate a month of orders into the finance team's sales spreadsheet."""
    raise NotImplementedError
