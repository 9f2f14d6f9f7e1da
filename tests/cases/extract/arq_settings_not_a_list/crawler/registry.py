"""Collects the crawler's jobs at import time."""

nightly = None


def all_functions():
    return []
