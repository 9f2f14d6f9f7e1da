"""The crawler's jobs. arq calls each with its context first; none is decorated: the worker
settings in :mod:`acme_crawler.worker` list them."""

from __future__ import annotations

from typing import Any

import httpx

Context = dict[str, Any]


async def fetch_page(ctx: Context, url: str) -> int:
    """Download one page and store its body for indexing."""
    client: httpx.AsyncClient = ctx["http"]
    response = await client.get(url, follow_redirects=True)
    await ctx["store"].save(url, response.text)
    return response.status_code


async def extract_links(ctx: Context, url: str) -> int:
    """Read a stored page's links and enqueue the ones not crawled yet."""
    links = await ctx["store"].links(url)
    for link in links:
        await ctx["redis"].enqueue_job("fetch_page", link)
    return len(links)


async def reindex_site(ctx: Context, site_id: int) -> None:
    """Rebuild the search index of one site from its stored pages."""
    await ctx["index"].rebuild(site_id)


async def prune_stale_pages(ctx: Context) -> None:
    """Delete pages that have not been seen for 30 days."""
    await ctx["store"].prune(days=30)


async def report_crawl_stats(ctx: Context) -> None:
    """Post yesterday's crawl counts to the team channel."""
    await ctx["stats"].post_daily()
