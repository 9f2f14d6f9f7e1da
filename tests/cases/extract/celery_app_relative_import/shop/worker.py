"""Worker entry point: celery -A shop.worker worker."""

import celery

celery_app = celery.Celery("shop")
