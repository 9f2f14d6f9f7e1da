"""Huey's context_task, called directly and through module-level aliases."""

from huey import RedisHuey

from shop.db import database

huey = RedisHuey("shop")

db_task = huey.context_task(database, retries=2)
plain_context = huey.context_task


@huey.context_task(database, retries=6 * 4, retry_delay=600)
def sync_inventory():
    """Pull stock levels from the warehouse."""


@db_task
def rebuild_search():
    """Reindex the catalogue."""


@plain_context(database, timeout=30, name="expire")
def expire_carts():
    """Drop stale carts."""
