"""Jobs enqueued from the Django admin through django-rq."""

from django_rq import job


@job("default", timeout="5m")
def notify_uploader(upload_id: int) -> None:
    """Tell the uploader that their asset finished processing."""
    raise NotImplementedError


@job("exports", timeout=900)
def export_asset_manifest(collection_id: int) -> str:
    """Write a CSV manifest of a collection for the archive team; returns its storage key."""
    raise NotImplementedError
