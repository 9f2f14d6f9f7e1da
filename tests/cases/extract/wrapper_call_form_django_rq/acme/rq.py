"""A drop-in for django_rq.job that carries the request's context into the job."""

import functools

from django_rq import job as _rq_job

from acme.context import current, restore


def job(*args, **kwargs):
    def wrap(func):
        @functools.wraps(func)
        def context_aware(*a, _context=None, **kw):
            with restore(_context):
                return func(*a, **kw)

        return _rq_job(*args, **kwargs)(context_aware)

    return wrap


def make_job(queue):
    def helper(order_id):
        return current()

    return _rq_job(queue)(helper)
