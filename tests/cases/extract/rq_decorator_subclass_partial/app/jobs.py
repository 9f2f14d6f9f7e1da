"""A project's own RQ decorator: a subclass of rq's, bound to a connection with partial."""

from functools import partial

from redis import Redis
from rq import decorators


class MyJob(decorators.job):
    """Adds logging around every job."""


class AuditedJob(MyJob):
    """And auditing."""


job = partial(MyJob, connection=Redis())
