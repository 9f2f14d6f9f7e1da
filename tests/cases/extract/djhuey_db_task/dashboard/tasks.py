"""Dashboard jobs that touch the Django database."""

from huey import crontab
from huey.contrib.djhuey import db_periodic_task, db_task


@db_task(retries=1, retry_delay=10)
def rebuild_pick_lists(warehouse_code):
    """Regroup open order lines into pick lists by aisle."""


@db_periodic_task(crontab(minute="*/15"))
def expire_stale_reservations():
    """Release reservations that were not paid in time."""
