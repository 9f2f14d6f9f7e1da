"""global and nonlocal decide which task a nested function reads."""

from celery import shared_task as task

HANDLERS = []


@task(queue="shop")
def real(order_id):
    """Settle an order."""


def outer(task):
    def inner():
        global task
        HANDLERS.append(task)

    def sibling():
        HANDLERS.append(task)

    return inner, sibling


def counter():
    task = 0

    def bump():
        nonlocal task
        task = task + 1
        return task

    return bump
