"""The shop's Celery app and its routes."""

from celery import Celery

app = Celery("shop", broker="redis://redis:6379/0")
app.conf.task_routes = {
    "shop.billing.*": {"queue": "billing"},
    "shop.emails.send_receipt": "emails",
}
