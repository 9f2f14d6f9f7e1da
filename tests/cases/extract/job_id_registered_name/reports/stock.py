"""Stock reports; this module reuses a registered name by mistake."""

import dramatiq


@dramatiq.actor(actor_name="reports.rebuild", queue_name="reports")
def rebuild_stock_report(day):
    """Rebuild the daily stock report."""
