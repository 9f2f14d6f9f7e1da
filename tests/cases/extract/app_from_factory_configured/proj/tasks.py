from proj.worker import app


@app.task(queue="mail", max_retries=3)
def send_digest(user_id):
    """Email the weekly digest."""
