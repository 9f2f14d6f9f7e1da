"""A job decorator whose arguments may be passed by position or by keyword."""


def job(name, queue="default", max_retries=3):
    """Declare a background job."""

    def register(fn):
        return fn

    return register
