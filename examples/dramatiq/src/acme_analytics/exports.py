"""Customer-requested exports. They can be large, so they get explicit time limits."""

from dramatiq import actor

EXPORT_QUEUE = "exports"


@actor(queue_name=EXPORT_QUEUE, max_retries=3, time_limit=60000, actor_name="export_orders_csv")
def export_orders(account_id: int, month: str) -> None:
    """Write a month of a customer's orders to CSV and email them a download link."""
    raise NotImplementedError


@actor(queue_name=EXPORT_QUEUE, max_retries=0, time_limit=10 * 60 * 1000, priority=10)
def export_full_catalogue(account_id: int) -> None:
    """Dump a customer's whole product catalogue for a migration to another shop system."""
    raise NotImplementedError
