"""The one module that imports SAQ: its settings register the jobs, with no decorator."""

import saq


async def deliver(ctx, *, message_id):
    """Deliver one queued message."""


settings = {
    "queue": saq.Queue.from_url("redis://localhost"),
    "functions": [deliver],
}
