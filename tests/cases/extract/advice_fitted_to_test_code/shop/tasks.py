"""The shop's job."""

from celery import Celery

app = Celery("shop")


@app.task(queue="shop")
def settle(order_id):
    """Settle an order."""
