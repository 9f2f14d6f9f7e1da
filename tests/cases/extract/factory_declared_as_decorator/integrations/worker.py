from celery import Celery

app = Celery("integrations")
