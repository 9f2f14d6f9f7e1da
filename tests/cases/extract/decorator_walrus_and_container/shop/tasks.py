"""Job decorators applied through expressions the parser does not follow."""

from celery import Celery

app = Celery("shop")
DECORATORS = {"billing": app.task, "plain": staticmethod}
PLAIN = {"plain": staticmethod}


@(registrar := app.task(queue="billing"))
def capture(order_id):
    """Capture an authorised payment."""


@DECORATORS["billing"]
def refund(order_id):
    """Give the money back."""


@PLAIN["plain"]
def helper(order_id):
    """Not a job: the container holds no job decorator."""


@app.task(queue="billing")
def settle(order_id):
    """Settle the day's payments."""
