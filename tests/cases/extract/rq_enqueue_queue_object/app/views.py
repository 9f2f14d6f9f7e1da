"""The HTTP handlers that start background work."""

from redis import Redis
from rq import Queue, Retry

from app.queries import execute_query
from app.queues import high


def run_query(request, query_id):
    job = high.enqueue(
        execute_query, query_id, request.user.id, job_timeout=600, retry=Retry(max=3, interval=60)
    )
    return job.id


def export(request, report_id):
    Queue("reports", connection=Redis()).enqueue_call(
        func="app.reports.build_report", args=(report_id,), timeout="10m"
    )
