"""Reports built on a schedule."""

import os

from reports.app import app

NIGHTLY = "0 3 * * *"


@app.periodic(cron=NIGHTLY, periodic_id="nightly")
@app.task(queue="reports")
def build_nightly_report(timestamp: int) -> None:
    """Build the nightly revenue report."""


@app.periodic(cron=os.environ["REPORT_CRON"])
@app.task(queue="reports")
def build_custom_report(timestamp: int) -> None:
    """Build the report whose schedule the deployment sets."""


class Clock:
    def periodic(self, cron: str):
        return lambda fn: fn


clock = Clock()


@clock.periodic(cron="* * * * *")
@app.task(queue="reports")
def ping(timestamp: int) -> None:
    """Not scheduled by procrastinate: the stacked decorator is a look-alike."""
