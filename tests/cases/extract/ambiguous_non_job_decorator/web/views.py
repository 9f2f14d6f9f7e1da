"""Views with an optional dependency: a decorator bound twice that is not a job decorator."""

from celery import shared_task

try:
    from flask_login import login_required
except ImportError:

    def login_required(view):
        return view


@login_required
def dashboard():
    """Show the dashboard."""


@shared_task(queue="reports")
def build_report(report_id):
    """Render a report."""
