"""Ingestion actors: raw events in, hourly partitions out."""

import dramatiq


@dramatiq.actor(max_retries=0)
def record_page_view(session_id: str, path: str) -> None:
    """Append one page view to the current hour's partition."""
    # Never retried: appending a page view twice counts it twice, and Dramatiq would otherwise
    # retry a failing actor 20 times. Page views are sampled; a lost one is acceptable.
    raise NotImplementedError


@dramatiq.actor(queue_name="ingest", max_retries=5, min_backoff=1000)
def ingest_clickstream_batch(batch_key: str) -> None:
    """Load a batch of clickstream events from object storage into the warehouse."""
    raise NotImplementedError
