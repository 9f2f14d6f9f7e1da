"""Payout jobs behind an alias whose name does not say it is a job decorator."""

from payouts.worker import payout_job


@payout_job
def wire_money_out(payout_id):
    """Send the wire to the bank."""
