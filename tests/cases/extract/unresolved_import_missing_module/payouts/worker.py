"""Worker settings; shared_task is not defined here."""

CONCURRENCY = 4
