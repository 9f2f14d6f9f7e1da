"""Media jobs on RQ (no retry unless a Retry is given)."""

from rq import Retry
from rq.decorators import job


@job("media", retry=Retry(max=3))
def render_thumbnails(asset_id):
    """Render thumbnails."""


@job("media")
def purge_renditions(asset_id):
    """Purge renditions (runs once)."""
