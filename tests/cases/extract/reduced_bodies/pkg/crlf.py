from pkg.tasks import app


def helper(x):
    """Line ends are CRLF."""
    y = x * 2
    return y


@app.task(max_retries=1)
def crlf_job(x):
    return helper(x)
