"""Feed ingestion jobs."""

from ingest.broker import broker


@broker.task(task_name="ingest:fetch_feed", retry_on_error=True, max_retries=3, timeout=30)
async def fetch_feed(url: str) -> None:
    """Fetch one RSS feed and store its new entries."""


@broker.task
async def prune_entries() -> None:
    """Delete entries older than the retention window."""
