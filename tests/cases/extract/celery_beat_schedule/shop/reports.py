"""Reporting jobs."""

from shop.celery_app import app


@app.task(queue="reports")
def build_sales_report(currency):
    """Aggregate a day of orders into the sales spreadsheet."""
