"""Customer exports on Dramatiq."""

from dramatiq import actor


@actor(queue_name="exports", max_retries=3, time_limit=60000, actor_name="export_orders_csv", min_backoff=5000)
def export_orders(account_id, month):
    """Write a month of orders to CSV."""


@actor(queue_name="exports", time_limit=1500)
def touch_export_index(account_id):
    """Refresh the export index page."""
