"""The app and its decorator aliases; one alias is bound twice."""

from celery import Celery

app = Celery("payouts")

payout_job = app.task(queue="payouts", max_retries=3)
if app.conf.get("task_always_eager"):
    payout_job = app.task(queue="eager")
