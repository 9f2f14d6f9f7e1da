"""Jobs registered through the wrappers."""

from acme.jobs import notify, report, slow


@notify("sms")
def send_sms(user_id):
    """Text the user."""


@report(max_retries=1)
def monthly_report(month):
    """Build the monthly report."""


@report(queue="urgent")
def urgent_report(month):
    """Build a report on another queue."""


@slow(queue="nightly")
def rebuild_index():
    """Rebuild the search index."""


@slow()
def vacuum():
    """Vacuum the database."""
