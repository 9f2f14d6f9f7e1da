"""Maintenance jobs."""


def purge_sessions():
    """Delete expired sessions."""


def refresh_rates():
    """Refresh currency exchange rates."""
