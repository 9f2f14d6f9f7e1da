"""Image jobs: renditions for new uploads and cleanup of the ones nobody references."""

from rq import Retry
from rq.decorators import job

from acme_media.queues import low, redis_conn


@job("thumbnails", connection=redis_conn, timeout="10m", retry=Retry(max=3, interval=60))
def render_thumbnails(asset_id: int) -> None:
    """Render the 64, 256 and 1024 px renditions of an uploaded image."""
    raise NotImplementedError


@job(low, connection=redis_conn, timeout=3600)
def purge_orphaned_renditions() -> int:
    """Delete renditions whose source asset is gone; returns how many were removed."""
    raise NotImplementedError
