"""Registers the periodic jobs with rq-scheduler (run once at deploy)."""

from datetime import datetime

from redis import Redis
from rq_scheduler import Scheduler

from app import maintenance

scheduler = Scheduler(queue_name="periodic", connection=Redis())

scheduler.cron("0 3 * * *", func=maintenance.purge_sessions, timeout=1800)
scheduler.schedule(
    scheduled_time=datetime.utcnow(),
    func="app.maintenance.refresh_rates",
    interval=300,
    repeat=None,
    queue_name="rates",
)
