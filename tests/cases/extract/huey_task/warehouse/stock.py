"""Stock jobs on Huey."""

from warehouse.queue import huey


@huey.task(retries=2, retry_delay=30, timeout=120, name="warehouse.reserve_stock", priority=10)
def reserve_stock(order_id):
    """Hold stock for a paid order until it is picked."""


@huey.task()
def sync_stock_levels(sku):
    """Pull the on-hand count of one SKU."""
