"""Jobs registered on the broker by call rather than by decorator."""

from taskiq import InMemoryBroker

broker = InMemoryBroker()


async def reindex(collection: str) -> None:
    """Rebuild the search index of one collection."""


broker.register_task(reindex, task_name="search:reindex", timeout=600)
