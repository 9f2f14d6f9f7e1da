"""Payout jobs importing the app with one dot too many (it climbs above the top-level package)."""

from ...celeryconf import app
from ...security import login_required


@app.task(queue="payouts")
def wire_money_out(payout_id):
    """Send the wire to the bank."""


@login_required
def payout_page():
    """Not a job: an unresolvable decorator that is not spelled like one is left alone."""
