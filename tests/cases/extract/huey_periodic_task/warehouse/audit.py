"""Nightly audits on Huey."""

from huey import SqliteHuey, crontab

huey = SqliteHuey("audit", filename="/var/lib/warehouse/huey.db")


@huey.periodic_task(crontab(minute="0", hour="3"), retries=1, retry_delay=600)
def nightly_stock_audit():
    """Compare every SKU's count with the warehouse system."""
