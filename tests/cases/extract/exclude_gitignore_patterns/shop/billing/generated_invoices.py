from celery import shared_task


@shared_task(queue="q")
def run():
    """A job."""
