"""Builds the configured app."""


def make_app(app):
    app.conf.task_default_queue = "payouts"
    return app
