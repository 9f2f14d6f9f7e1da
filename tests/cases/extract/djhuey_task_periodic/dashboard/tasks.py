from huey import crontab
from huey.contrib.djhuey import periodic_task, task


@task(retries=2, retry_delay=30)
def refresh_widget(widget_id):
    """Recomputes one dashboard widget."""


@periodic_task(crontab(minute="0"), retries=1)
def hourly_rollup():
    """Rolls up the hour's metrics."""
