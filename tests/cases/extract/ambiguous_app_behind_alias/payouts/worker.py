"""The app, rebound when the settings module swaps it, and an alias built on it."""

from celery import Celery

from payouts.settings import configured

app = Celery("payouts")
app = configured(app)

payout_job = app.task(queue="payouts", max_retries=3)
