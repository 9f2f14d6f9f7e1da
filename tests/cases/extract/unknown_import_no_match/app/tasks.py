"""Tasks using objects from a package outside the scanned tree."""

from vendor_sdk.queueing import app, shared_task


@app.task(queue="vendor")
def push_inventory(sku):
    """Push one SKU to the vendor portal."""


@shared_task
def pull_orders():
    """Pull new orders from the vendor portal."""
