"""Housekeeping jobs for the shop."""

from celery import Celery

app = Celery("shop")


@app.task
def purge_expired_carts():
    """Delete carts nobody touched for 30 days."""
