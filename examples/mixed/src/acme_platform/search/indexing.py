"""Search indexing actors; they run on Dramatiq through the platform's ``@actor``."""

from acme_platform.jobs import actor

SEARCH_QUEUE = "search"


@actor(queue_name=SEARCH_QUEUE, time_limit=120_000)
def reindex_product(product_id: int) -> None:
    """Rebuild one product's search document after an edit."""
    raise NotImplementedError


@actor(queue_name=SEARCH_QUEUE, max_retries=1, time_limit=30 * 60 * 1000)
def rebuild_suggestions() -> None:
    """Recompute the autocomplete suggestions from last week's queries."""
    raise NotImplementedError
