"""The team's job decorator with house defaults."""

from django.conf import settings


def job(queue="default", max_retries=3, soft_time_limit_s=60, time_limit_s=settings.JOB_TIME_LIMIT):
    """Declare a background job; omitted settings fall back to the house defaults."""

    def register(fn):
        return fn

    return register
