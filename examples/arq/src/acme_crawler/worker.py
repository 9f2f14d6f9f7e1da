"""The arq worker: ``arq acme_crawler.worker.WorkerSettings``."""

from __future__ import annotations

import httpx
from arq import cron
from arq.connections import RedisSettings
from arq.worker import func

from acme_crawler.jobs import (
    extract_links,
    fetch_page,
    prune_stale_pages,
    reindex_site,
    report_crawl_stats,
)

REDIS = RedisSettings(host="redis", database=2)


async def startup(ctx: dict) -> None:
    ctx["http"] = httpx.AsyncClient(timeout=20)


async def shutdown(ctx: dict) -> None:
    await ctx["http"].aclose()


class WorkerSettings:
    """Every job this worker runs, and the defaults they share."""

    redis_settings = REDIS
    on_startup = startup
    on_shutdown = shutdown
    queue_name = "crawler"
    max_tries = 4
    job_timeout = 60
    functions = [
        fetch_page,
        func(extract_links, max_tries=2, timeout=30),
        func(reindex_site, name="reindex", timeout=1800, keep_result=3600),
    ]
    cron_jobs = [
        cron(prune_stale_pages, hour=4, minute=15, timeout=900),
        cron(report_crawl_stats, hour=7, minute=0, run_at_startup=False),
    ]
