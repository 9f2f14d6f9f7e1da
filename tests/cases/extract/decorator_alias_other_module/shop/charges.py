"""This file never spells a framework word: it only uses the shared alias."""

from shop.worker import billing


@billing
def charge_card(order_id):
    """Charge the card on file for an order."""


@billing(max_retries=1)
def void_charge(order_id):
    """Void an uncaptured charge."""
