"""Mail jobs: some retry explicitly from their body, some only set max_retries."""

from celery import Celery, Task

app = Celery("mail")


@app.task(bind=True, max_retries=4)
def send_invoice_mail(self, invoice_id):
    """Mail an invoice; a busy relay is retried from the body."""
    try:
        relay(invoice_id)
    except OSError as exc:
        raise self.retry(exc=exc, countdown=30)


@app.task(bind=True, max_retries=4)
def send_digest(task, account_id):
    """Mail the weekly digest; the bound task is not called self here."""
    if not relay(account_id):
        task.retry(countdown=60)


@app.task(max_retries=4)
def send_welcome(account_id):
    """Mail the welcome letter; max_retries alone, nothing calls retry."""
    relay(account_id)


class SendReminder(Task):
    """Mail a payment reminder."""

    name = "mail.send_reminder"
    max_retries = 2

    def run(self, account_id):
        if not relay(account_id):
            return self.retry()


app.register_task(SendReminder())


def relay(item):
    return item
