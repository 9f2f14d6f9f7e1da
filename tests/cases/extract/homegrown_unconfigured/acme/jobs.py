"""A job decorator nobody has configured in [tool.jobledger] yet."""


def job(queue="default", max_retries=3):
    """Declare a background job."""

    def register(fn):
        return fn

    return register
