"""The warehouse's Huey instance; the consumer runs ``huey_consumer acme_warehouse.queue.huey``."""

import os

from huey import RedisHuey

huey = RedisHuey("acme-warehouse", host=os.environ.get("REDIS_HOST", "localhost"))
