"""Registrations a test module really makes, through what it imports: an alias of the job
decorator applied to a function, and a name the module it is imported from does not bind."""

from shop.tasks import charge_task, missing_task


def refund(order_id):
    """Refund in a test."""


def audit(order_id):
    """Audit in a test."""


refund_task = charge_task(refund)
audit_task = missing_task(audit)
