"""Search indexing actors."""

from acme_platform.queueing import actor


@actor(queue_name="search", time_limit=120000, max_retries=2, actor_name="reindex")
def reindex_product(product_id):
    """Rebuild one product's search document."""


@actor(time_limit=5000)
def warm_cache(product_id):
    """Prefetch the product page into the cache."""
