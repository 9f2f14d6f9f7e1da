"""An arq worker whose functions are computed, and one entry that is not a function."""

from arq.connections import RedisSettings

from crawler import registry


class WorkerSettings:
    redis_settings = RedisSettings()
    functions = registry.all_functions()
    cron_jobs = [registry.nightly]
