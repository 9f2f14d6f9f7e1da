"""The shop's Celery app, configured from a module."""

from celery import Celery

app = Celery("shop")
app.config_from_object("shop.celeryconfig")
