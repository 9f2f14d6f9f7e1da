from celery import Celery

app = Celery("billing")
t0 = app.task(queue="billing")
