"""Newsletter delivery on Django's built-in Tasks framework."""

from django.core.mail import send_mail
from django.tasks import task


@task
def send_welcome_email(user_email):
    """Send the welcome email to a user who just signed up."""
    send_mail("Welcome", "Thanks for joining.", None, [user_email])
