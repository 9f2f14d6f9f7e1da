"""An import script with a progress bar, and an asyncio fan-out: other libraries' *_task APIs."""

import asyncio

from rich.progress import Progress

from importer.jobs import import_row


def import_rows(rows):
    with Progress() as progress:
        bar = progress.add_task("[cyan]Importing", total=len(rows))
        for row in rows:
            import_row.delay(row)
            progress.advance(bar)


async def fan_out(items):
    loop = asyncio.get_event_loop()
    loop.create_task(fetch(items[0]))
    async with asyncio.TaskGroup() as tg:
        for item in items:
            tg.create_task(fetch(item))
    await asyncio.gather(*[asyncio.create_task(fetch(item)) for item in items])


async def fetch(item):
    return item
