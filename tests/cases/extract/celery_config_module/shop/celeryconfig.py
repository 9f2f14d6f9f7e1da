"""Celery settings, loaded with app.config_from_object."""

broker_url = "redis://redis:6379/0"
task_routes = [{"shop.imports.*": {"queue": "imports"}}]
beat_schedule = {
    "import-feeds": {"task": "shop.imports.import_feeds", "schedule": 900},
}
