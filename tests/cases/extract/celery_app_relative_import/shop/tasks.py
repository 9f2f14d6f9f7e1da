"""Stock jobs."""

from .worker import celery_app as worker_app


@worker_app.task(queue="stock")
def recount_stock(sku):
    """Recount one SKU from the warehouse feed."""
