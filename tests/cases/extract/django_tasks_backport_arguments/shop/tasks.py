"""Order follow-ups on the django_tasks backport."""

from django_tasks import task

EMAIL_QUEUE = "emails"


@task(queue_name=EMAIL_QUEUE, priority=10, takes_context=True)
def send_receipt(context, order_id):
    """Email the receipt of a paid order."""


@task(priority=-20, backend="database")
def rebuild_search_index():
    """Rebuild the product search index."""
