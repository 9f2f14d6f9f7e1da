"""Supplier feed imports."""

from shop.celery_app import app


@app.task
def import_feeds():
    """Import every supplier's product feed."""
