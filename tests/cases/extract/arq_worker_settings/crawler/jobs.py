"""Crawler jobs, run by arq."""


async def download_page(ctx, url):
    """Download one page and store its body."""


async def extract_links(ctx, page_id):
    """Extract the links of a stored page and enqueue the new ones."""


async def purge_old_pages(ctx):
    """Delete pages older than the retention window."""
