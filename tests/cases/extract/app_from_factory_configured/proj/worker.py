from celery import Celery


def create_app(name):
    app = Celery(name)
    app.config_from_object("proj.settings")
    return app


app = create_app("proj")
