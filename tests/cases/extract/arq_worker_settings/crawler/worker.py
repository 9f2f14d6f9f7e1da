"""The arq worker of the crawler: `arq crawler.worker.WorkerSettings`."""

from arq import cron
from arq.connections import RedisSettings
from arq.worker import func

from crawler.jobs import download_page, extract_links, purge_old_pages


class WorkerSettings:
    redis_settings = RedisSettings(host="redis")
    queue_name = "crawler"
    max_tries = 3
    job_timeout = 120
    functions = [
        download_page,
        func(extract_links, name="links", max_tries=6, timeout=30, keep_result=0),
    ]
    cron_jobs = [cron(purge_old_pages, hour=3, minute=0, timeout=900)]
