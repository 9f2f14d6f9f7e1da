"""A module whose job decorators are named task and job, and code whose own names are too."""

from celery import shared_task as task
from django_rq import job

from shop.models import Job


@task(queue="shop")
def real(order_id):
    """Settle an order."""


@job("low")
def reindex(product_id):
    """Reindex a product."""


def router(name, task=None):
    task = task or real
    handlers = [task for task in (real, reindex)]
    return task, handlers, {job: job for job in ("a", "b")}


def retry(job_id):
    job = Job.objects.get(pk=job_id)
    job.requeue()
    return job


def pick(jobs):
    return sorted(jobs, key=lambda job: job.created)


class Pipeline:
    task = "shop.tasks.real"
    steps = (task,)

    def run(self, job=None):
        return job or self.task


def handler(*, task):
    return [task]
