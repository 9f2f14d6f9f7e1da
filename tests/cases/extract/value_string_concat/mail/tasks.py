"""Mail jobs whose queue names are built from parts."""

from celery import shared_task

PREFIX = "mail"


@shared_task(queue=PREFIX + "-bulk", name="mail." + "send_newsletter")
def send_newsletter(issue_id):
    """Send one newsletter issue to every subscriber."""


@shared_task(queue="mail" "-transactional")
def send_password_reset(user_id):
    """Send a password reset link."""
