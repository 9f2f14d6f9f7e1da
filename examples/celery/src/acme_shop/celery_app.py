"""The shop's Celery application; workers start with ``celery -A acme_shop.celery_app worker``."""

from celery import Celery

app = Celery("acme_shop")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="acme_shop.ping", queue="celery", ignore_result=False)
def ping() -> str:
    """Answer the load balancer's worker health probe."""
    return "pong"
