"""Image jobs on RQ."""

from redis import Redis
from rq.decorators import job

redis_conn = Redis()


@job("thumbnails", connection=redis_conn, timeout=180, result_ttl=3600)
def render_thumbnails(asset_id):
    """Render the standard renditions of an uploaded image."""


@job(queue="exports", connection=redis_conn)
def export_album(album_id):
    """Zip an album for download."""
