"""A plugin registry whose API happens to look like Celery's."""


class Registry:
    """Collects callables by name; it has nothing to do with background jobs."""

    def __init__(self):
        self.entries = {}

    def task(self, fn=None, **options):
        def add(f):
            self.entries[f.__name__] = (f, options)
            return f

        return add(fn) if fn is not None else add


registry = Registry()
