"""Reports built on a plain `import celery`."""

import celery


@celery.shared_task(queue="reports", time_limit=900)
def build_monthly_report(month):
    """Aggregate a month of orders."""
