"""The jobs, and an alias of the job decorator spelled like a job."""

from shop.worker import app

charge_task = app.task


@app.task(queue="mail")
def send_receipt(order_id):
    """Mail the receipt."""


def format_task(order_id):
    """A helper spelled like a job: no registration."""
    return str(order_id)
