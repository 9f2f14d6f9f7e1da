"""The importer's one job."""

import dramatiq


@dramatiq.actor(queue_name="imports")
def import_row(row):
    """Import one row."""
