# -*- coding: latin-1 -*-
"""Courriels transactionnels."""

from celery import shared_task


@shared_task(queue='reçus')
def envoyer_recu(facture_id):
    """Envoie le reçu au client."""
