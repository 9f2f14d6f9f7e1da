"""Page-view ingestion."""

import dramatiq


@dramatiq.actor
def record_page_view(session_id, path):
    """Append one page view to the current hour's partition."""


@dramatiq.actor()
def record_search(session_id, query):
    """Append one search to the current hour's partition."""
