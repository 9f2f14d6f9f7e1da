from rq.decorators import job as plain_job

from app.jobs import AuditedJob, job


@job("low", timeout=60)
def resize_images():
    """Resize uploads."""


@AuditedJob("high", connection=None)
def close_books():
    """Close the books."""


@plain_job("default")
def ping():
    """Say hello."""
