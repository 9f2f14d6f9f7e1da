"""Redis connection and the shared low-priority queue."""

import os

from redis import Redis
from rq import Queue

redis_conn = Redis.from_url(os.environ.get("REDIS_URL", "redis://localhost:6379/0"))

#: Housekeeping that may wait for a quiet moment.
low = Queue("low", connection=redis_conn)
