"""Sales reports."""

from celery import shared_task


@shared_task(name="reports.rebuild", queue="reports")
def rebuild(month):
    """Rebuild the monthly sales report."""


@shared_task(queue="reports")
def email_report(month):
    """Email the monthly sales report to finance."""
