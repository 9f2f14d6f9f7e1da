"""Wires to banks: this module spells no job word, only the alias."""

from payouts.worker import payout_job


@payout_job
def wire_money_out(payout_id):
    """Send the wire to the bank."""
