"""Export jobs."""

from acme.background import job


@job(queue="exports", timeout_ms=90_000, warn_after_ms=60 * 1000)
def export_orders(account_id):
    """Write a customer's orders to CSV."""
