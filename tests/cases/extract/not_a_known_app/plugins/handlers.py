"""Handlers registered with the plugin registry, not with a job framework."""

from plugins.registry import Registry, registry

local_registry = Registry()


def task(fn):
    """A local helper that merely shares a name with Celery's decorator."""
    return fn


@registry.task(queue="billing")
def on_invoice_paid(event):
    """React to an invoice.paid event."""


@local_registry.task
def on_refund(event):
    """React to a refund event."""


@task
def on_dispute(event):
    """React to a dispute event."""


local_registry.task(on_dispute)
