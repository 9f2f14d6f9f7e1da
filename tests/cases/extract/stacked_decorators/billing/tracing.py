"""Tracing helpers (no jobs here)."""


def traced(span_name):
    """Wrap a function in a tracing span."""

    def decorate(fn):
        return fn

    return decorate
