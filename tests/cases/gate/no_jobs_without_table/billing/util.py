"""Helpers, no jobs."""


def helper():
    return 1
