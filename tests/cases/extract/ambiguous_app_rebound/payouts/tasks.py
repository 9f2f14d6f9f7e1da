"""Payout jobs; the app is rebound after a settings import, as a migration left it."""

from celery import Celery

from payouts.factory import make_app

app = Celery("payouts")
app = make_app(app)


@app.task(queue="payouts")
def wire_money_out(payout_id):
    """Send the wire to the bank."""


@app.task
def reconcile_wires():
    """Match bank statements to sent wires."""


app = app
