"""Broker setup; import this before any actor module so actors bind to Redis."""

import os

import dramatiq
from dramatiq.brokers.redis import RedisBroker

broker = RedisBroker(url=os.environ.get("REDIS_URL", "redis://localhost:6379/1"))
dramatiq.set_broker(broker)
