"""Payment jobs registered through expressions the parser does not follow."""

from celery import Celery

app = Celery("shop")


def wire_funds(order_id):
    """Send the money to the supplier."""


def refund(order_id):
    """Give the money back."""


def void(order_id):
    """Cancel a pending payment."""


@[app.task][0]
def capture(order_id):
    """Capture an authorised payment."""


(wire_funds_task,) = map(app.task, [wire_funds])
REGISTRARS = {"refund": app.task}
register = getattr(app, "task")


def registrar():
    """Hand out the decorator."""
    return app.task


def install(fn, decorator):
    """Apply a decorator later."""
    return decorator(fn)


void_task = install(void, app.task)


@app.task(queue="billing")
def settle(order_id):
    """Settle the day's payments."""
