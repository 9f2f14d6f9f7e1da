"""A Pyramid app's periodic tasks, added through its configurator, and Celery's own beat hook."""

from celery import Celery
from celery.schedules import crontab

app = Celery("scheduler")


@app.task(queue="beat")
def purge_sessions():
    """Delete expired sessions."""


def includeme(config):
    config.add_periodic_task(crontab(minute=0), purge_sessions)


@app.on_after_configure.connect
def setup_periodic_tasks(sender, **kwargs):
    sender.add_periodic_task(3600.0, purge_sessions.s(), name="purge hourly")
