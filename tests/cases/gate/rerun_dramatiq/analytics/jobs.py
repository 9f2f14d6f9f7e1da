"""Analytics actors on Dramatiq, whose Retries middleware retries 20 times by default."""

import dramatiq


@dramatiq.actor
def record_page_view(session_id, path):
    """Append one page view (a bare actor: up to 20 retries)."""


@dramatiq.actor(max_retries=0)
def record_click(session_id):
    """Append one click (max_retries=0: runs once)."""


@dramatiq.actor(max_retries=3)
def export_orders(account_id):
    """Export orders (3 retries, a signed dedupe guard)."""
