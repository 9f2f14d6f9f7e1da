"""Warehouse tasks on Huey (no retry unless retries is set)."""

from huey import RedisHuey

huey = RedisHuey("warehouse")


@huey.task(retries=2)
def reserve_stock(order_id):
    """Hold stock for an order."""


@huey.task()
def release_stock(order_id):
    """Release held stock (runs once)."""
