"""Tâches de facturation — text past ASCII in docstrings, strings and comments (never in a
name), so the bodies that cannot register are left out of what libcst parses, as in ASCII."""

from celery import Celery

app = Celery("shop")

GREETING = "Grüße, ☃"


def format_amount(amount):
    """Montant formaté : « 12,50 € »."""
    # a helper body past ASCII: nothing in it can register
    return f"{amount:.2f} €".replace(".", ",")


class Invoice:
    def render(self):
        return "Facture n° 1 — ✓"


@app.task(queue="billing", max_retries=3)
def envoyer_facture(invoice_id):
    """Envoie la facture — « une fois »."""
    return format_amount(invoice_id)


def schedule():
    # this body spells a relevant word, so it is kept whole: ☂
    return envoyer_facture.delay(1)
