"""The mailer's arq settings as a mapping, handed to run_worker."""

from arq import cron, run_worker
from arq.worker import func

from mailer.jobs import bounce_cleanup, send_digest, send_welcome

SETTINGS = {
    "queue_name": "mail",
    "max_tries": 4,
    "functions": [send_digest, func(send_welcome, timeout=20)],
    "cron_jobs": [cron(bounce_cleanup, hour=4)],
}


def main() -> None:
    run_worker(SETTINGS)
