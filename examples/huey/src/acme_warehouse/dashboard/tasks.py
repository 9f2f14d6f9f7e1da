"""Dashboard jobs; they touch the Django database, so they use djhuey's db_* decorators."""

from huey import crontab
from huey.contrib.djhuey import db_periodic_task, db_task


@db_task(retries=1, retry_delay=10)
def rebuild_pick_lists(warehouse_code: str) -> None:
    """Regroup open order lines into pick lists by aisle."""
    raise NotImplementedError


@db_periodic_task(crontab(minute="*/15"))
def expire_stale_reservations() -> None:
    """Release reservations whose order was not paid within 30 minutes."""
    raise NotImplementedError
