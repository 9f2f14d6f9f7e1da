"""Stock jobs: keep our counts in step with the warehouse management system."""

from huey import crontab

from acme_warehouse.queue import huey


@huey.task(retries=3, retry_delay=60)
def sync_stock_levels(sku: str) -> None:
    """Pull the current on-hand count of one SKU from the warehouse management system."""
    raise NotImplementedError


@huey.task(retries=2, retry_delay=30, timeout=120, name="warehouse.reserve_stock", priority=10)
def reserve_stock(order_id: str) -> None:
    """Hold stock for a paid order until it is picked."""
    raise NotImplementedError


@huey.periodic_task(crontab(minute="0", hour="3"))
def nightly_stock_audit() -> None:
    """Compare every SKU's count with the warehouse system and report drift."""
    raise NotImplementedError
