"""Mailer jobs, run by arq."""


async def send_digest(ctx, user_id):
    """Send one user's weekly digest."""


async def send_welcome(ctx, user_id):
    """Send the welcome mail to a new user."""


async def bounce_cleanup(ctx):
    """Drop addresses that bounced three times."""


async def resend_failed(ctx):
    """Resend mails whose delivery failed."""
