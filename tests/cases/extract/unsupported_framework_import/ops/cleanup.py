"""Nightly cleanup on APScheduler, a job framework the parser has no table for."""

from apscheduler.schedulers.blocking import BlockingScheduler

import schedule

scheduler = BlockingScheduler()


@scheduler.scheduled_job("cron", hour=2)
def vacuum_tables():
    """VACUUM the large tables."""


schedule.every().day.at("04:00").do(vacuum_tables)
