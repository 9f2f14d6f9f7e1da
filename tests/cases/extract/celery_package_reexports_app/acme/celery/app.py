from celery import Celery

app = Celery("acme")
