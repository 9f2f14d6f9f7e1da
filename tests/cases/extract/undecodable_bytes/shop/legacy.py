"""Exported from a legacy system in cp1252: Café “quoted” ÿ"""

from celery import shared_task


@shared_task(queue='orders')
def import_legacy_orders(batch):
    """Import orders."""
