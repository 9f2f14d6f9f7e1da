"""The same decorator, called positionally and with keywords: Python binds both the same."""

from acme.queueing import job


@job(name="update-badges", queue="low")
def update_badges():
    """Recompute badges."""


@job("send-digest", "mail", 5)
def send_digest():
    """Email the digest."""
