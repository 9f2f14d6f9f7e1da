"""The shop's Celery app and the decorators its teams share."""

from celery import Celery

app = Celery("shop")

billing = app.task(queue="billing", max_retries=4, acks_late=True)
