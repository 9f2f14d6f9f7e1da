"""Fullwidth identifiers: CPython normalises them (NFKC), so these register jobs."""

from celery import Celery, ｓｈａｒｅｄ_ｔａｓｋ

app = Celery("shop")


@app.ｔａｓｋ(queue="billing")
def wire_funds():
    """Move the money."""


@ｓｈａｒｅｄ_ｔａｓｋ(queue="mail")
def send_mail():
    """Send it."""
