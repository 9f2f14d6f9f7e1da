"""The SAQ worker of the mailer: `saq mailer.worker.settings`."""

from saq import CronJob, Queue


async def send_digest(ctx, *, user_id):
    """Send one user's daily digest."""


async def bounce_report(ctx):
    """Summarise yesterday's bounces."""


async def deliver(ctx, *, message_id):
    """Deliver one queued message."""


queue = Queue.from_url("redis://localhost")

settings = {
    "queue": queue,
    "functions": [deliver, ("digest", send_digest)],
    "concurrency": 10,
    "cron_jobs": [CronJob(bounce_report, cron="0 6 * * *", timeout=300, retries=2)],
}
