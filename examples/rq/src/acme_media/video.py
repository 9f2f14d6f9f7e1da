"""Video jobs. Transcoding is slow, so it has its own queue and worker pool."""

from rq.decorators import job

from acme_media.queues import redis_conn

TRANSCODE_QUEUE = "transcode"


@job(TRANSCODE_QUEUE, connection=redis_conn, timeout="1h", result_ttl=86400)
def transcode_upload(upload_id: int) -> None:
    """Transcode an uploaded video into the HLS ladder the player streams."""
    raise NotImplementedError
