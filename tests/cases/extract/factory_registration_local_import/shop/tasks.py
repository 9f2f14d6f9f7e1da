"""Registrations inside functions whose app or decorator is imported there."""


def setup_periodic():
    from shop.celery import app

    @app.task(queue="billing")
    def settle_accounts():
        """Settle the day's accounts."""

    return settle_accounts


def wire():
    from celery import shared_task

    def refund(order_id):
        """Refund an order."""

    return shared_task(refund)


def helper():
    from functools import lru_cache

    @lru_cache
    def cached():
        return 1

    return cached
