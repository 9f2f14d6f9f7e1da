"""The shop's Celery app and its periodic schedule."""

from celery import Celery
from celery.schedules import crontab

app = Celery("shop")
app.conf.update(
    timezone="Europe/Paris",
    beat_schedule={
        "nightly-sales-report": {
            "task": "shop.reports.build_sales_report",
            "schedule": crontab(hour=2, minute=30),
            "args": ("EUR",),
        },
        "purge-carts": {"task": "shop.carts.purge_abandoned", "schedule": 3600.0},
    },
)


@app.task
def ping():
    """Answer the health probe."""


app.send_task("shop.reports.build_sales_report", args=("USD",))
app.send_task("shop.reports.build_weekly_digest")
