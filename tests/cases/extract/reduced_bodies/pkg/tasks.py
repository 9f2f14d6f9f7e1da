"""Jobs among ordinary code: libcst is handed only what can matter (extract/reduce.py)."""

import functools

from celery import Celery

app = Celery("shop")
queue_name = "billing"


def scale(value, factor=2):
    """Ordinary code: its body is left out of libcst's text, its docstring kept."""
    items = [value * factor for _ in range(3)]
    # a comment between statements
    total = sum(items) + \
        factor
    return {"items": items, "total": total}


def no_docstring(value):
    total = value * 2
    return total


def one_liner(value): return value


def shared_line(value):
    """Shares a line."""; doubled = value * 2
    return doubled


def configure():
    global queue_name
    queue_name = "reports"
    return queue_name


class Service:
    """A service whose methods are left out, but one that registers."""

    retries = 3

    def fetch(self, key):
        value = self.client.get(key)
        return value

    def register(self, fn):
        return app.task(fn)

    @functools.lru_cache(maxsize=8)
    def cached(self, key):
        value = key * 2
        return value


def documented(order_id):
    """Process one order (registered by a call below)."""
    result = scale(order_id)
    return result


def undocumented(order_id):
    result = scale(order_id)
    return result


process = app.task(documented, queue="orders")
process_plain = app.task(undocumented)


@app.task(queue=queue_name, max_retries=3)
def billed(invoice_id):
    """Capture one invoice."""
    total = scale(invoice_id)
    return total


def factory():
    @app.task
    def inner(x):
        return x

    return inner


if True:

    def in_if(x):
        y = x + 1
        return y

    @app.task(max_retries=2)
    def guarded(x):
        """Registered under an if."""
        y = in_if(x)
        return y
