"""Signal handlers that hand work to django-rq."""

import django_rq

from app.tasks import drop_document, index_document


def on_save(sender, instance, **kwargs):
    django_rq.enqueue(index_document, instance.pk)


def on_delete(sender, instance, **kwargs):
    django_rq.get_queue("low").enqueue(drop_document, instance.pk, job_timeout=60)
