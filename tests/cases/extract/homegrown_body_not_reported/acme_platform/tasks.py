"""Platform jobs."""

from acme_platform.jobs import job


@job(queue="maintenance", max_retries=1)
def vacuum_sessions():
    """Delete expired sessions."""
