"""Jobs that build the shop's catalogue (a real package that happens to be named build)."""

from celery import shared_task


@shared_task(queue="catalogue")
def rebuild_catalogue():
    """Rebuild the product catalogue."""
