"""Crawler jobs on arq: 5 tries by default (4 retries), a cron job 1 try."""

from arq import cron, func


async def fetch_page(ctx, url):
    """Fetch a page (the worker's default of 5 tries)."""


async def store_page(ctx, url):
    """Store a page (max_tries=1: runs once)."""


async def prune_pages(ctx):
    """Prune stale pages (a cron job: one try)."""


class WorkerSettings:
    functions = [fetch_page, func(store_page, max_tries=1)]
    cron_jobs = [cron(prune_pages, hour=3)]
