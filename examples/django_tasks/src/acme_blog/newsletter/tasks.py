"""Newsletter delivery."""

from django.core.mail import send_mail
from django.tasks import task

NEWSLETTER_QUEUE = "newsletter"


@task(queue_name=NEWSLETTER_QUEUE, priority=-10)
def send_issue(issue_id: int, recipient: str) -> None:
    """Email one newsletter issue to one subscriber."""
    send_mail(f"Issue {issue_id}", "", None, [recipient])


@task
def confirm_subscription(email: str) -> None:
    """Email the double opt-in link to a new subscriber."""
    send_mail("Confirm your subscription", "", None, [email])
