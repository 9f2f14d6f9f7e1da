"""Upload handlers."""

from redis import Redis
from rq import Queue

from app.jobs import render_thumbnail

redis = Redis()
media = Queue("media", connection=redis)
bulk = Queue("bulk", connection=redis)


def on_upload(asset_id):
    media.enqueue(render_thumbnail, asset_id, job_timeout=120)


def on_import(asset_ids):
    for asset_id in asset_ids:
        bulk.enqueue(render_thumbnail, asset_id, job_timeout=120)
