"""Plugins register their jobs on an app handed to them: the decorator is exactly a framework's
registering name on an object the parser cannot know."""


def install(app, broker):
    @app.task(queue="plugins")
    def refresh_cache():
        """Refresh the plugin cache."""

    @broker.actor
    def ping():
        """Answer a ping."""

    app.conf.beat_schedule = {"refresh": {"task": refresh_cache.name}}
    app.tasks.register_task_class(refresh_cache)
    return refresh_cache


def wire(make_app):
    with make_app() as app:

        def warm():
            """Warm the cache."""

        app.task(warm)
        app.task(lambda: None)
