"""Jobs enqueued from the Django admin with django-rq."""

import django_rq
from django_rq import job


@job("default", timeout="5m")
def notify_uploader(upload_id):
    """Tell the uploader their asset is ready."""


@django_rq.job("exports", timeout=900)
def export_manifest(collection_id):
    """Write a CSV manifest of a collection."""
