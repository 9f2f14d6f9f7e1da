"""Report jobs all go to the slow queue; the partial pins it."""

from functools import partial

from redis import Redis
from rq.decorators import job

report_job = partial(job, "reports", connection=Redis(), timeout="30m")
