"""Import jobs on procrastinate (not retried unless retry is set)."""

import procrastinate

app = procrastinate.App(connector=procrastinate.PsycopgConnector())


@app.task(queue="imports", retry=4)
def import_feed(feed_id):
    """Import a partner feed."""


@app.task(queue="imports", retry=True)
def import_catalogue(partner_id):
    """Import a catalogue (retried forever)."""


@app.task(queue="imports")
def import_prices(partner_id):
    """Import prices (runs once)."""
