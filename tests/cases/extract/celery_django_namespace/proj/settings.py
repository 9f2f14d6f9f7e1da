"""Django settings; Celery's keys carry the CELERY_ namespace."""

DEBUG = False

CELERY_TASK_ROUTES = {
    "proj.tasks.rebuild_search_index": {"queue": "search"},
}

CELERY_BEAT_SCHEDULE = {
    "nightly-index": {"task": "proj.tasks.rebuild_search_index", "schedule": 86400},
}

# Without the namespace this is not Celery's: it routes nothing.
TASK_ROUTES = {"proj.tasks.send_newsletter": {"queue": "wrong"}}
