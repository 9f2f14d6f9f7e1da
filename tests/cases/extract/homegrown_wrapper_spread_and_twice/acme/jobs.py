"""Wrappers whose body the parser cannot pin to one set of keywords."""

from celery import shared_task

HOUSE = {"max_retries": 2}


def house(**kwargs):
    """Spreads the house options, a dict the wrapper's body names."""
    options = dict(HOUSE)

    def deco(fn):
        return shared_task(queue="house", **options)(fn)

    return deco


def either(fast=False):
    """Registers on one of two queues, decided when it runs."""

    def deco(fn):
        if fast:
            return shared_task(queue="fast")(fn)
        return shared_task(queue="slow")(fn)

    return deco
