"""Ops jobs whose settings come from the environment at import time."""

import os
from datetime import timedelta

from celery import shared_task

QUEUE = os.environ.get("OPS_QUEUE", "ops")


@shared_task(queue=QUEUE, max_retries=int(os.environ["OPS_RETRIES"]), soft_time_limit=timedelta(minutes=5).seconds)
def rotate_logs():
    """Rotate and compress yesterday's logs."""


@shared_task(queue=os.environ["OPS_QUEUE"], time_limit=None)
def prune_backups():
    """Delete backups past their retention."""
