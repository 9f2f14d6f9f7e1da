"""Transactional email."""

from celery import shared_task


@shared_task
def send_welcome_email(user_id):
    """Send the welcome email after sign-up."""
