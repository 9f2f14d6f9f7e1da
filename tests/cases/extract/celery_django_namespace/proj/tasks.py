"""The project's tasks."""

from proj.celery import app


@app.task
def rebuild_search_index():
    """Rebuild the search index from the database."""


@app.task
def send_newsletter():
    """Send this week's newsletter."""
