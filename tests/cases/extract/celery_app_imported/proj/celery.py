"""The project's Celery app, in the conventional proj/celery.py module."""

from celery import Celery

app = Celery("proj")
app.config_from_object("django.conf:settings", namespace="CELERY")
