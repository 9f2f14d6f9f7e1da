"""Jobs registered through the wrappers."""

from acme.jobs import either, house


@house()
def tidy():
    """Tidy up."""


@either(fast=True)
def ping():
    """Ping."""
