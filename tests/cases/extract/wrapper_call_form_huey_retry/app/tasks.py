"""Jobs registered through the recipe."""

from app.huey_app import task_with_backoff


@task_with_backoff(retries=5)
def sync_inventory(store_id):
    """Pull a store's stock levels."""
