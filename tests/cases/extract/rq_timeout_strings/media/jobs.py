"""Video jobs whose timeouts are written the way RQ allows."""

from rq.decorators import job


@job("transcode", timeout="10m")
def transcode_preview(upload_id):
    """Transcode a short preview clip."""


@job("transcode", timeout="1h")
def transcode_full(upload_id):
    """Transcode the full upload into the streaming ladder."""


@job("transcode", timeout="90")
def probe_upload(upload_id):
    """Read the container metadata of an upload."""
