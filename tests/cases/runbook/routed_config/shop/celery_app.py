"""The shop's Celery app; its routes send invoices to their own queue."""

from celery import Celery

app = Celery("shop")
app.conf.task_routes = {"shop.tasks.capture_invoice": {"queue": "billing"}}
