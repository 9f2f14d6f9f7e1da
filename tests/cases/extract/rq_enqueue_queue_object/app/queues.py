"""The RQ queues of the query service."""

from redis import Redis
from rq import Queue

redis = Redis()
high = Queue("high", connection=redis)
