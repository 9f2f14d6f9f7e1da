"""Jobs that manage vendor environments (a real package named venv)."""

from celery import shared_task


@shared_task(queue="ops")
def refresh_vendor_env():
    """Refresh a vendor's environment."""
