from celery import Celery


class PlatformCelery(Celery):
    """Celery with the platform's logging wired in."""


class TracedCelery(PlatformCelery):
    pass


app = TracedCelery("platform")


@app.task(queue="sessions")
def expire_sessions():
    """Delete expired login sessions."""
