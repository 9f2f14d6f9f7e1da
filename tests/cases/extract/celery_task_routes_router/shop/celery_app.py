"""Routes decided by a router function: the parser cannot read them."""

from celery import Celery

app = Celery("shop")


def route_task(name, args, kwargs, options, task=None, **kw):
    if name.startswith("shop.video."):
        return {"queue": "video"}
    return None


app.conf.task_routes = (route_task,)
