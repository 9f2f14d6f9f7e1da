"""Order jobs."""

from proj.celery import app


@app.task(queue="orders", max_retries=2)
def cancel_unpaid_order(order_id):
    """Cancel an order whose payment never arrived."""
