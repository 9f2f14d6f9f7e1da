"""Jobs registered through the drop-in."""

from acme.rq import job


@job("emails")
def send_receipt(order_id):
    """Mail the receipt."""
