"""The taskiq broker of the ingest service."""

from taskiq_redis import ListQueueBroker, RedisAsyncResultBackend

broker = ListQueueBroker("redis://redis:6379/0").with_result_backend(
    RedisAsyncResultBackend("redis://redis:6379/1")
)
