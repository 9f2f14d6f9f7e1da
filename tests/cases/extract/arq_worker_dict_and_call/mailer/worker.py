"""A second worker built in code, as arq's Worker class takes it."""

import asyncio

from arq import Worker

from mailer.jobs import resend_failed


class Worker2:
    """Not arq's: a look-alike worker whose functions are not jobs."""

    def __init__(self, functions):
        self.functions = functions


async def main() -> None:
    worker = Worker(functions=[resend_failed], queue_name="mail-retries", job_timeout=60)
    await worker.async_run()
    Worker2(functions=[print])


if __name__ == "__main__":
    asyncio.run(main())
