"""Ops jobs registered from things the parser cannot see into."""

from shutil import rmtree

from celery import Celery

app = Celery("ops")

ping = app.task(lambda: "pong", name="ops.ping")
clean_scratch = app.task(rmtree, queue="ops")


@app.task(queue="ops")
def rotate_logs():
    """Rotate and compress yesterday's logs."""
