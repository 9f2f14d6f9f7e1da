"""Payout jobs whose app module is not in the scanned tree (generated at deploy time)."""

from payouts.celeryconf import app
from payouts.worker import shared_task


@app.task(queue="payouts")
def wire_money_out(payout_id):
    """Send the wire to the bank."""


@shared_task
def reconcile_wires():
    """Match bank statements to sent wires."""
