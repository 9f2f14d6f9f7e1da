"""Tasks on factory-made apps."""

from acme.worker import app, direct, either


@app.task(queue="billing")
def capture(invoice_id):
    """Capture an invoice."""


@direct.task
def ping():
    """Ping."""


@either.task
def maybe():
    """Registered only if the factory made a Celery app."""


from acme.worker import registry  # noqa: E402


@registry.task
def plugin_hook():
    """A plugin hook: the factory returns a Registry, not a job framework's app."""


from acme.worker import given, twice  # noqa: E402


@given.task
def handed_over():
    """Not a job: `given` is whatever the caller handed to passthrough()."""


@twice.task
def rebound():
    """Not provable: the factory's returned name is bound twice."""
