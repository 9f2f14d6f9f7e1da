"""Search index upkeep."""

from django.tasks import task


@task(queue_name="search", priority=20, takes_context=True)
def index_post(context, post_id: int) -> None:
    """Add or refresh one published post in the search index."""


@task(queue_name="search")
def rebuild_index() -> None:
    """Rebuild the whole search index from the published posts."""
