"""App factories."""

import os

from celery import Celery


def create_app():
    app = Celery("acme")
    app.config_from_object("acme.celeryconfig")
    return app


def make_direct():
    return Celery("direct")


def make_either(flag):
    if flag:
        return Celery("one")
    return object()


app = create_app()
direct = make_direct()
either = make_either(os.environ.get("X"))


class Registry:
    """A plugin registry: its ``task`` method registers no background job."""

    def task(self, fn):
        return fn


def make_registry():
    return Registry()


registry = make_registry()


def passthrough(app):
    """Hands back the app it was given: a parameter, not an app this factory makes."""
    return app


def rebuilt():
    """Binds its name twice (a loop rebinds it): no one provable value."""
    made = Celery("first")
    for made in (object(),):
        pass
    return made


given = passthrough(object())
twice = rebuilt()
